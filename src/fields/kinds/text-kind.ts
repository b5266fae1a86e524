import { defineFieldType } from '../define-field-type.js';
import type { FieldType } from '../field-type.js';
import { badFieldValue, show } from './value-errors.js';

const MAX_TEXT_LENGTH = 1_000_000;

/**
 * A text-like type: a string (a finite number is taken as its decimal text), empty string = empty.
 * `check` returns a problem description for values of the right kind but the wrong form.
 */
export function textKind(spec: {
  code: string;
  name: string;
  canBeTitle?: boolean;
  check?: (text: string) => string | null;
  filterKind?: FieldType['filterKind'];
}): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'text',
    column: 'text',
    availability: 'ready',
    canBeTitle: spec.canBeTitle,
    filterKind: spec.filterKind,
    write(value, _field, ctx) {
      let text: string;
      if (typeof value === 'string') text = value;
      else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
      else throw badFieldValue(ctx.label, `expected text, got ${show(value)}`);
      if (text.length > MAX_TEXT_LENGTH) throw badFieldValue(ctx.label, `text is longer than ${MAX_TEXT_LENGTH} characters`);
      const problem = spec.check?.(text);
      if (problem) throw badFieldValue(ctx.label, problem);
      return text;
    },
    read: (stored) => (stored === null ? '' : stored),
  });
}
