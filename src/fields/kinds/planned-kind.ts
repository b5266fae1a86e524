import type { LogicalColumnType } from '../../db/dialect/sql-dialect.js';
import { defineFieldType } from '../define-field-type.js';
import type { FieldType } from '../field-type.js';

/**
 * A known public type whose behaviour arrives with a later issue. It is registered (so that its
 * code and name are understood and its storage is decided) but a definition of it is refused.
 */
export function plannedKind(spec: {
  code: string;
  name: string;
  valueKind: FieldType['valueKind'];
  column: LogicalColumnType | null;
  readOnly?: boolean;
  plannedFor: string;
}): FieldType {
  // No write: a field of it cannot be defined. Whether it sorts is decided when its behaviour arrives.
  return defineFieldType({ ...spec, availability: 'planned', indexable: false });
}
