import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta, ResolvedReferences } from '../../fields/field-type.js';
import type { WorksheetSchema } from '../worksheets/index.js';
import { emptyReferenceSet, type ReferenceSet } from './value-codec.js';
import { collectProcessMembers, decodeProcessColumns } from './process-presenter.js';

/** A row as the driver returns it: system columns plus one column per field id. */
export type StoredRow = Record<string, unknown> & {
  id: string;
  _created_by: string;
  _owner: string;
  _updated_by: string;
  _created_at: number;
  _updated_at: number;
  /** The record's number in its worksheet. */
  _autoid: number;
};

/** The fields a read shows: every value-holding field, or the projection asked for. */
export function readableFields(schema: WorksheetSchema, projection: FieldMeta[] | null, hidden: ReadonlySet<string> = NOTHING_HIDDEN): FieldMeta[] {
  return (projection ?? schema.fields).filter((f) => f.fieldType.storage !== 'none' && !hidden.has(f.id));
}

const NOTHING_HIDDEN: ReadonlySet<string> = new Set();

/** Decodes driver values into stored values (booleans, JSON) once per row. */
export function decodeRow(dialect: SqlDialect, fields: FieldMeta[], row: Record<string, unknown>): StoredRow {
  for (const field of fields) {
    const column = field.fieldType.column;
    if (column) row[field.id] = dialect.decode(column, row[field.id]);
  }
  decodeProcessColumns(dialect, row);
  return row as StoredRow;
}

/** The ids the rows refer to: members and departments in values, and the system users. */
export function collectReferences(fields: FieldMeta[], rows: StoredRow[]): ReferenceSet {
  const refs = emptyReferenceSet();
  for (const row of rows) {
    refs.account.add(row._created_by);
    refs.account.add(row._owner);
    refs.account.add(row._updated_by);
    collectProcessMembers(row, refs);
    for (const field of fields) {
      const stored = row[field.id];
      if (stored === null || stored === undefined) continue;
      const found = field.fieldType.references?.(stored, field);
      if (found) for (const id of found.ids) refs[found.kind].add(id);
    }
  }
  return refs;
}

function user(id: string, refs: ResolvedReferences) {
  return { accountId: id, fullname: refs.accounts.get(id)?.fullname ?? '' };
}

/**
 * A record on the wire: `{id, fields:[{id, value, type, controlName}], _createdBy, _owner,
 * _updatedBy, _createdAt, _updatedAt}`.
 */
export function presentRecord(fields: FieldMeta[], row: StoredRow, refs: ResolvedReferences) {
  return {
    id: row.id,
    fields: fields.map((field) => {
      const stored = row[field.id] ?? null;
      return { id: field.id, value: field.fieldType.read(stored, field, refs, { createdAt: row._created_at }), type: field.type, controlName: field.name };
    }),
    _createdBy: user(row._created_by, refs),
    _owner: user(row._owner, refs),
    _updatedBy: user(row._updated_by, refs),
    _createdAt: new Date(row._created_at).toISOString(),
    _updatedAt: new Date(row._updated_at).toISOString(),
  };
}
