import type { FieldType } from '../field-type.js';
import { badFieldValue } from '../kinds/value-errors.js';

/**
 * 33 AutoNumber: 1, 2, 3… assigned in insertion order, never reused; read as text,
 * zero-padded to `config.length` when set. Clients cannot write it.
 */
export const autoNumber: FieldType = {
  code: '33',
  name: 'AutoNumber',
  valueKind: 'text',
  column: 'integer',
  availability: 'ready',
  readOnly: true,
  assignOnInsert: 'autoNumber',
  canBeTitle: true,
  canBeRequired: false,
  indexable: true,
  write(value, _field, ctx) {
    if (value === null || value === undefined || value === '') return null;
    throw badFieldValue(ctx.label, 'an AutoNumber is assigned by the system and cannot be written');
  },
  read(stored, field) {
    if (stored === null) return '';
    const length = typeof field.config.length === 'number' ? field.config.length : 0;
    return String(stored).padStart(length, '0');
  },
};
