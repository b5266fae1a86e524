import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no', '']);

/** 36 Checkbox: a boolean; `true`, `"true"`, `"True"`, `1`, `"1"` check it. Unchecked counts as empty. */
export const checkbox = defineFieldType({
  code: '36',
  name: 'Checkbox',
  valueKind: 'boolean',
  column: 'boolean',
  availability: 'ready',
  // Not sending a value leaves the box unchecked, which it shows as false, never as null.
  storedWhenEmpty: false,
  write(value, _field, ctx) {
    if (typeof value === 'boolean') return value;
    if (value === 1 || value === 0) return value === 1;
    if (typeof value === 'string') {
      const lower = value.trim().toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
    }
    throw badFieldValue(ctx.label, `expected true or false, got ${show(value)}`);
  },
  read: (stored) => stored === true,
  isEmpty: (stored) => stored !== true,
});
