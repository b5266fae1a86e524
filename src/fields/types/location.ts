import { defineFieldType } from '../define-field-type.js';
import { parseNumber } from '../kinds/number-kind.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

interface StoredLocation {
  x: number;
  y: number;
  address: string;
  title: string;
}

/**
 * 40 Location: a point, `{x: longitude, y: latitude, address?, title?}`
 * (`longitude`/`latitude` are understood too).
 */
export const location = defineFieldType({
  code: '40',
  name: 'Location',
  valueKind: 'json',
  column: 'json',
  availability: 'ready',
  write(value, _field, ctx): StoredLocation {
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw badFieldValue(ctx.label, `expected {x, y, address, title}, got ${show(value)}`);
    }
    const input = value as Record<string, unknown>;
    const x = parseNumber(input.x ?? input.longitude);
    const y = parseNumber(input.y ?? input.latitude);
    if (x === undefined || x < -180 || x > 180) throw badFieldValue(ctx.label, `x (longitude) must be a number from -180 to 180, got ${show(input.x ?? input.longitude)}`);
    if (y === undefined || y < -90 || y > 90) throw badFieldValue(ctx.label, `y (latitude) must be a number from -90 to 90, got ${show(input.y ?? input.latitude)}`);
    for (const key of ['address', 'title'] as const) {
      if (input[key] !== undefined && input[key] !== null && typeof input[key] !== 'string') {
        throw badFieldValue(ctx.label, `${key} must be text, got ${show(input[key])}`);
      }
    }
    return { x, y, address: (input.address as string) ?? '', title: (input.title as string) ?? '' };
  },
});
