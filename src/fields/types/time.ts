import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/**
 * 46 Time: a time of day, written as `HH:mm` or `HH:mm:ss`, stored as `HH:mm:ss`;
 * read as `HH:mm:ss` when `subType` is 6, else as `HH:mm`.
 */
export const time = defineFieldType({
  code: '46',
  name: 'Time',
  valueKind: 'time',
  column: 'text',
  availability: 'ready',
  write(value, _field, ctx) {
    const match = typeof value === 'string' ? TIME.exec(value.trim()) : null;
    if (!match) throw badFieldValue(ctx.label, `expected a time as HH:mm or HH:mm:ss, got ${show(value)}`);
    return `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
  },
  read(stored, field) {
    if (stored === null) return null;
    return field.config.subType === 6 ? stored : (stored as string).slice(0, 5);
  },
});
