import { DateTime } from 'luxon';
import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

const ISO_OR_SQL =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const DAYS_PER_400_YEARS = 146_097;

/** Minutes east of UTC of `Z`, `+08`, `+0800` or `-05:30`. */
function offsetMinutes(text: string): number {
  if (text === 'Z' || text === 'z') return 0;
  const sign = text[0] === '-' ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}

/**
 * Reads a written date-time: ISO 8601 (an offset or Z is honoured; without one the time is in
 * `timeZone`), or `YYYY-MM-DD HH:mm[:ss]` in `timeZone`. Returns epoch milliseconds, or undefined
 * when the text is not such a date-time or names a day or time that does not exist.
 * Written with an offset (or in a UTC zone) it is computed directly; batch imports of a hundred
 * thousand values spend their time here, and only local times in other zones need luxon's rules.
 */
export function parseDateTime(text: string, timeZone: string): number | undefined {
  const match = ISO_OR_SQL.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const parts = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? '0')];
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  if (parts[1] < 1 || parts[1] > 12 || parts[3] > 23 || parts[4] > 59 || parts[5] > 59) return undefined;
  // Date.UTC reads years 0–99 as 1900–1999; 400 Gregorian years later the calendar is the same.
  const early = parts[0] < 100;
  const utc =
    Date.UTC(parts[0] + (early ? 400 : 0), parts[1] - 1, parts[2], parts[3], parts[4], parts[5], millis) -
    (early ? DAYS_PER_400_YEARS * 86_400_000 : 0);
  if (new Date(utc).getUTCDate() !== parts[2]) return undefined;
  if (offset) return utc - offsetMinutes(offset) * 60_000;
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return utc;
  const local = DateTime.fromObject(
    { year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5], millisecond: millis },
    { zone: timeZone },
  );
  return local.isValid ? local.toMillis() : undefined;
}

/**
 * 16 DateTime: an instant. Stored as epoch milliseconds; read as ISO 8601 UTC with
 * milliseconds and a trailing Z.
 */
export const dateTime = defineFieldType({
  code: '16',
  name: 'DateTime',
  valueKind: 'datetime',
  column: 'timestamp',
  availability: 'ready',
  write(value, _field, ctx) {
    const millis = typeof value === 'string' ? parseDateTime(value, ctx.timeZone) : undefined;
    if (millis === undefined) {
      throw badFieldValue(ctx.label, `expected an ISO 8601 date-time or "YYYY-MM-DD HH:mm[:ss]", got ${show(value)}`);
    }
    return millis;
  },
  read: (stored) => (stored === null ? null : new Date(stored as number).toISOString()),
});
