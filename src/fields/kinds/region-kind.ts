import { defineFieldType } from '../define-field-type.js';
import type { FieldType } from '../field-type.js';
import { badFieldValue, show } from './value-errors.js';

/**
 * A region (administrative division) type, written and read as its numeric code, e.g. "310100".
 * The three codes differ only in how deep the client lets a person choose.
 */
export function regionKind(spec: { code: string; name: string }): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'text',
    column: 'text',
    filterKind: 'region',
    availability: 'ready',
    write(value, _field, ctx) {
      const code = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
      if (typeof code !== 'string' || !/^\d{2,12}$/.test(code)) throw badFieldValue(ctx.label, `expected a region code such as "310100", got ${show(value)}`);
      return code;
    },
    read: (stored) => (stored === null ? '' : stored),
  });
}
