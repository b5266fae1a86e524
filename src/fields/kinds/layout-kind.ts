import type { FieldType } from '../field-type.js';
import { badFieldValue } from './value-errors.js';

/** A layout element of the form (divider, embed, tab section, button): it holds no value. */
export function layoutKind(spec: { code: string; name: string }): FieldType {
  return {
    code: spec.code,
    name: spec.name,
    valueKind: 'none',
    column: null,
    availability: 'ready',
    canBeRequired: false,
    write(value, _field, ctx) {
      if (value === null || value === undefined || value === '') return null;
      throw badFieldValue(ctx.label, `a ${spec.name} field holds no value`);
    },
  };
}
