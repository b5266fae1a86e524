import { AppError } from '../../shared/app-error.js';
import { defineFieldType } from '../define-field-type.js';
import { parseNumber } from '../kinds/number-kind.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

const DEFAULT_MAX = 5;

function maxOf(config: Record<string, unknown>): number {
  return typeof config.max === 'number' ? config.max : DEFAULT_MAX;
}

/** 28 Rating: a whole number from 0 to the field's `max` (1–10, default 5); read as text. */
export const rating = defineFieldType({
  code: '28',
  name: 'Rating',
  valueKind: 'number',
  column: 'integer',
  availability: 'ready',
  prepare(draft) {
    const config = { ...draft.config };
    if (config.max !== undefined && config.max !== null) {
      const max = parseNumber(config.max);
      if (max === undefined || !Number.isInteger(max) || max < 1 || max > 10) {
        throw AppError.invalidValue(`field "${draft.name}": max must be a whole number from 1 to 10, got ${show(config.max)}`);
      }
      config.max = max;
    }
    return { options: [], config };
  },
  write(value, field, ctx) {
    const number = parseNumber(value);
    const max = maxOf(field.config);
    if (number === undefined || !Number.isInteger(number) || number < 0 || number > max) {
      throw badFieldValue(ctx.label, `expected a whole number from 0 to ${max}, got ${show(value)}`);
    }
    return number;
  },
  read: (stored) => (stored === null ? null : String(stored)),
});
