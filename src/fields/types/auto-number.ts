import { defineFieldType } from '../define-field-type.js';
import { badFieldValue } from '../kinds/value-errors.js';

/**
 * 33 AutoNumber: 1, 2, 3… assigned in insertion order, never reused; read as text,
 * zero-padded to `config.length` when set. Clients cannot write it.
 */
export const autoNumber = defineFieldType({
  code: '33',
  name: 'AutoNumber',
  valueKind: 'text',
  column: 'integer',
  availability: 'ready',
  readOnly: true,
  canBeTitle: true,
  // An empty value is accepted and ignored: for a system-assigned value it is no change, not a clearing.
  write(_value, _field, ctx) {
    throw badFieldValue(ctx.label, 'an AutoNumber is assigned by the system and cannot be written');
  },
  read(stored, field) {
    if (stored === null) return '';
    const length = typeof field.config.length === 'number' ? field.config.length : 0;
    return String(stored).padStart(length, '0');
  },
  async assignOnInsert(field, count, io) {
    const first = await io.reserveSequence(field.id, count);
    return Array.from({ length: count }, (_, i) => first + i);
  },
});
