import { DateTime } from 'luxon';
import type { FieldType } from '../field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/** 15 Date: a calendar day, written and read as `YYYY-MM-DD`, stored as that text (sorts correctly). */
export const date: FieldType = {
  code: '15',
  name: 'Date',
  valueKind: 'date',
  column: 'text',
  availability: 'ready',
  canBeRequired: true,
  indexable: true,
  write(value, _field, ctx) {
    if (value === null || value === undefined || value === '') return null;
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || !DateTime.fromISO(value).isValid) {
      throw badFieldValue(ctx.label, `expected a date as YYYY-MM-DD, got ${show(value)}`);
    }
    return value;
  },
  read: (stored) => (stored === null ? null : stored),
};
