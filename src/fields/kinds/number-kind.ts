import { defineFieldType } from '../define-field-type.js';
import type { FieldMeta, FieldType, PreparedDefinition, FieldDefinitionDraft } from '../field-type.js';
import { badFieldValue, show } from './value-errors.js';
import { AppError } from '../../shared/app-error.js';

/** Reads a number from a number or a numeric string; undefined when it is neither. */
export function parseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) {
    // "1e400" has the form of a number but overflows to Infinity, which no column can hold.
    const number = Number(value);
    return Number.isFinite(number) ? number : undefined;
  }
  return undefined;
}

export function precisionOf(field: FieldMeta): number | undefined {
  const precision = field.config.precision;
  return typeof precision === 'number' ? precision : undefined;
}

/** Moves the decimal point of `value` by `places` through its shortest text, so 1.005 stays 1.005. */
function shiftDecimal(value: number, places: number): number {
  // String(1e-7) is "1e-7": the exponent is added to, not appended after, another "e".
  const [mantissa, exponent = '0'] = String(value).split('e');
  return Number(`${mantissa}e${Number(exponent) + places}`);
}

/** Rounds half away from zero to `digits` decimals, without binary surprises like 1.005. */
export function roundTo(value: number, digits: number): number {
  // Most values already have at most `digits` decimals (they were rounded when written): keep them.
  const scaled = value * 10 ** digits;
  if (Number.isInteger(scaled) && Math.abs(scaled) < Number.MAX_SAFE_INTEGER) return value;
  const rounded = shiftDecimal(Math.round(shiftDecimal(Math.abs(value), digits)), -digits);
  return value < 0 ? -rounded : rounded;
}

export function preparePrecision(draft: FieldDefinitionDraft): PreparedDefinition {
  const config = { ...draft.config };
  if (config.precision !== undefined && config.precision !== null) {
    const precision = parseNumber(config.precision);
    if (precision === undefined || !Number.isInteger(precision) || precision < 0 || precision > 14) {
      throw AppError.invalidValue(`field "${draft.name}": precision must be a whole number from 0 to 14, got ${show(config.precision)}`);
    }
    config.precision = precision;
  } else {
    delete config.precision;
  }
  return { options: [], config };
}

/** A numeric type: stored as a double, read as a decimal string (with the field's precision). */
export function numberKind(spec: { code: string; name: string }): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'number',
    column: 'real',
    availability: 'ready',
    prepare: preparePrecision,
    write(value, field, ctx) {
      const number = parseNumber(value);
      if (number === undefined) throw badFieldValue(ctx.label, `expected a number, got ${show(value)}`);
      const precision = precisionOf(field);
      return precision === undefined ? number : roundTo(number, precision);
    },
    read: readDecimal,
  });
}

/** A stored number as the wire reads it: a decimal string, with the field's precision when it has one. */
export function readDecimal(stored: unknown, field: FieldMeta): string | null {
  if (stored === null) return null;
  const precision = precisionOf(field);
  // Values written before the precision was set are unrounded; toFixed alone reads 1.005 as "1.00".
  return precision === undefined ? String(stored) : roundTo(stored as number, precision).toFixed(precision);
}
