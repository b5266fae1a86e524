import { DateTime } from 'luxon';
import type { FieldType } from '../field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

const HAS_OFFSET = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/**
 * Reads a written date-time: ISO 8601 (an offset or Z is honoured; without one the time is in
 * `timeZone`), or `YYYY-MM-DD HH:mm[:ss]` in `timeZone`. Returns epoch milliseconds.
 */
export function parseDateTime(text: string, timeZone: string): number | undefined {
  const trimmed = text.trim();
  let parsed: DateTime;
  if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    parsed = HAS_OFFSET.test(trimmed) ? DateTime.fromISO(trimmed, { setZone: true }) : DateTime.fromISO(trimmed, { zone: timeZone });
  } else if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(trimmed)) {
    parsed = DateTime.fromSQL(trimmed, { zone: timeZone });
  } else {
    return undefined;
  }
  return parsed.isValid ? parsed.toMillis() : undefined;
}

/**
 * 16 DateTime: an instant. Stored as epoch milliseconds; read as ISO 8601 UTC with
 * milliseconds and a trailing Z.
 */
export const dateTime: FieldType = {
  code: '16',
  name: 'DateTime',
  valueKind: 'datetime',
  column: 'timestamp',
  availability: 'ready',
  canBeRequired: true,
  indexable: true,
  write(value, _field, ctx) {
    if (value === null || value === undefined || value === '') return null;
    const millis = typeof value === 'string' ? parseDateTime(value, ctx.timeZone) : undefined;
    if (millis === undefined) {
      throw badFieldValue(ctx.label, `expected an ISO 8601 date-time or "YYYY-MM-DD HH:mm[:ss]", got ${show(value)}`);
    }
    return millis;
  },
  read: (stored) => (stored === null ? null : new Date(stored as number).toISOString()),
};
