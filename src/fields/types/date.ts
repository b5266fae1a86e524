import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/** Whether `text` is `YYYY-MM-DD` naming a day that exists (2024-02-30 does not). */
function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** 15 Date: a calendar day, written and read as `YYYY-MM-DD`, stored as that text (sorts correctly). */
export const date = defineFieldType({
  code: '15',
  name: 'Date',
  valueKind: 'date',
  column: 'text',
  availability: 'ready',
  write(value, _field, ctx) {
    if (typeof value !== 'string' || !isCalendarDay(value)) {
      throw badFieldValue(ctx.label, `expected a date as YYYY-MM-DD, got ${show(value)}`);
    }
    return value;
  },
});
