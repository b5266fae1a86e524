import type { ApiProfile } from '../../shared/api-profile.js';
import type { FieldMeta, ResolvedReferences } from '../../fields/field-type.js';
import { presentRecord, type StoredRow } from './presenter.js';
import { presentProcessFields } from './process-presenter.js';

/**
 * The one place that decides how a record reads on the wire (the "row payload"). Every read that
 * returns records (get, list, and later relations, logs, search…) builds its rows here.
 *
 * - **spec**: `{id, fields:[{id, value, type, controlName}], _createdBy, _owner, _updatedBy, _createdAt, _updatedAt}`.
 * - **flat**: `{id, rowId, <alias or field id>: value, …}`, plus the five `_` system keys, `autoid`
 *   and the process fields (`process-presenter.ts`) when `includeSystemFields` is true. This is how the public service answers, and what a request that
 *   carries `useFieldIdAsKey` asks for.
 */
export type RowShape = { kind: 'spec' } | { kind: 'flat'; keyByFieldId: boolean; systemFields: boolean };

/** What a read request says about the shape of its rows. */
export interface RowShapeRequest {
  /** true: flat rows keyed by field id; false: keyed by alias; absent: the profile decides. */
  useFieldIdAsKey?: boolean;
  /** Flat rows only: add `_createdBy`, `_owner`, `_updatedBy`, `_createdAt`, `_updatedAt`. */
  includeSystemFields?: boolean;
}

/**
 * The shape of the rows a read answers with: flat under the public profile, or whenever the
 * request carries `useFieldIdAsKey` (true or false), since that parameter only makes sense there.
 * @example rowShapeFor('spec', {}) // { kind: 'spec' }
 * @example rowShapeFor('spec', { useFieldIdAsKey: false }) // flat, keyed by alias, no system keys
 */
export function rowShapeFor(profile: ApiProfile, request: RowShapeRequest): RowShape {
  if (profile === 'spec' && request.useFieldIdAsKey === undefined) return { kind: 'spec' };
  return { kind: 'flat', keyByFieldId: request.useFieldIdAsKey === true, systemFields: request.includeSystemFields === true };
}

/** Keys a flat row gives the record itself; a field aliased like this is keyed by its id instead. */
const RECORD_KEYS = new Set(['id', 'rowId']);

/** The key of each field in a flat row: its alias (its id when it has none, or when asked to). */
export function flatKeys(fields: FieldMeta[], keyByFieldId: boolean): string[] {
  return fields.map((field) => (keyByFieldId || !field.alias || RECORD_KEYS.has(field.alias) ? field.id : field.alias));
}

/** A system user as flat rows show it: the shape a Collaborator value has, for one member. */
function flatUser(id: string, refs: ResolvedReferences) {
  const account = refs.accounts.get(id);
  return { accountId: id, fullname: account?.fullname ?? '', avatar: account?.avatar ?? '', status: account?.status ?? 0 };
}

/** A record payload: the spec record, or a flat object of keys to values. */
export type RowPayload = ReturnType<typeof presentRecord> | Record<string, unknown>;

/**
 * Builds the payload of each row of one read; the keys are worked out once per read, not per row.
 * `now` (epoch ms) is what `_remainingTime` counts from.
 * @example const present = rowPresenter(shape, fields, ctx.now()); rows.map((row) => present(row, refs))
 */
export function rowPresenter(shape: RowShape, fields: FieldMeta[], now: number): (row: StoredRow, refs: ResolvedReferences) => RowPayload {
  if (shape.kind === 'spec') return (row, refs) => presentRecord(fields, row, refs);
  const keys = flatKeys(fields, shape.keyByFieldId);
  return (row, refs) => {
    const payload: Record<string, unknown> = { id: row.id, rowId: row.id };
    const record = { createdAt: row._created_at };
    fields.forEach((field, i) => {
      payload[keys[i]] = field.fieldType.read(row[field.id] ?? null, field, refs, record);
    });
    if (shape.systemFields) {
      payload._createdBy = flatUser(row._created_by, refs);
      payload._owner = flatUser(row._owner, refs);
      payload._updatedBy = flatUser(row._updated_by, refs);
      payload._createdAt = new Date(row._created_at).toISOString();
      payload._updatedAt = new Date(row._updated_at).toISOString();
      payload.autoid = row._autoid;
      Object.assign(payload, presentProcessFields(row, refs, now));
    }
    return payload;
  };
}
