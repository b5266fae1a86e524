import { defineFieldType } from '../define-field-type.js';
import type { FieldType } from '../field-type.js';
import { badFieldValue } from './value-errors.js';

/** A layout element of the form (divider, embed, tab section, button): it holds no value. */
export function layoutKind(spec: { code: string; name: string }): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'none',
    column: null,
    availability: 'ready',
    // Empty values are accepted (and stored nowhere), so that a client may send every field of a form.
    write(_value, _field, ctx) {
      throw badFieldValue(ctx.label, `a ${spec.name} field holds no value`);
    },
  });
}
