import type { FieldMeta, ResolvedReferences } from '../../fields/field-type.js';
import { JsonText } from '../../shared/json-text.js';
import type { StoredRow } from './presenter.js';
import { PROCESS_FIELD_KEYS, presentProcessFields } from './process-presenter.js';
import { flatKeys, type RowShape } from './row-shape.js';

/** Writes one record of a page as its wire text; `now` (epoch ms) is what `_remainingTime` counts from. */
export type RowTextWriter = (row: StoredRow, refs: ResolvedReferences, now: number) => JsonText;

/**
 * The writer of a page's records as text, in the shape the read asked for; null when the shape
 * cannot be written so (a field keyed like one of the flat row's own keys, which the schema
 * serializer would place and type as that key): the page is then presented as objects.
 * @example const write = rowTextWriter(shape, fields); if (write) rows.map((row) => write(row, refs, now))
 */
export function rowTextWriter(shape: RowShape, fields: FieldMeta[]): RowTextWriter | null {
  if (shape.kind === 'spec') return specRowWriter(fields);
  return flatRowWriter(fields, flatKeys(fields, shape.keyByFieldId), shape.systemFields);
}

type Account = ReturnType<ResolvedReferences['accounts']['get']>;

/** A user's text made once for the page (a writer is made per read): the page's records share a few users. */
function perUser(write: (id: string, account: Account) => string): (id: string, refs: ResolvedReferences) => string {
  const texts = new Map<string, string>();
  return (id, refs) => {
    let text = texts.get(id);
    if (text === undefined) {
      text = write(id, refs.accounts.get(id));
      texts.set(id, text);
    }
    return text;
  };
}

/**
 * Writes spec-shape records (`presenter.ts`'s `presentRecord`) straight to JSON text (`JsonText`,
 * which the list route's serializer splices in as it is), byte for byte
 * what the route's schema serializer makes of the record objects: the same keys in the same order.
 * (A `read` that gave `undefined` would fail the schema's serializer, as `value` is required; here
 * it is written as `null`.)
 *
 * Why: a page of 50 records of 14 fields is 700 `{id, value, type, controlName}` objects and 150
 * user objects, made only to be walked once by the serializer, which also escaped every field id,
 * type and name again for every record. Here the text around each value is made once per page, the
 * users' text once per user, and only the values are serialised per record (W4 in docs/benchmark.md).
 * @example const write = specRowWriter(fields); rows.map((row) => write(row, refs))
 */
export function specRowWriter(fields: FieldMeta[]): RowTextWriter {
  const opens = fields.map((field) => `{"id":${JSON.stringify(field.id)},"value":`);
  const closes = fields.map((field) => `,"type":${JSON.stringify(String(field.type))},"controlName":${JSON.stringify(String(field.name))}}`);
  const userJson = perUser((id, account) => `{"accountId":${JSON.stringify(id)},"fullname":${JSON.stringify(account?.fullname ?? '')}}`);
  return (row, refs) => {
    const record = { createdAt: row._created_at };
    let json = `{"id":${JSON.stringify(row.id)},"fields":[`;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const value = field.fieldType.read(row[field.id] ?? null, field, refs, record);
      json += `${i > 0 ? ',' : ''}${opens[i]}${value === undefined ? 'null' : JSON.stringify(value)}${closes[i]}`;
    }
    json += `],"_createdBy":${userJson(row._created_by, refs)},"_owner":${userJson(row._owner, refs)},"_updatedBy":${userJson(row._updated_by, refs)}`;
    json += `,"_createdAt":"${new Date(row._created_at).toISOString()}","_updatedAt":"${new Date(row._updated_at).toISOString()}"}`;
    return new JsonText(json);
  };
}

/**
 * The keys the flat row schema (`schemas.ts`'s `FlatRecordOut`) names, which it writes first, in its
 * order, and types. (Not read from the schema: `schemas.ts` imports the records service, which
 * imports this file. The unit test holds the two lists together.)
 */
const FLAT_OWN_KEYS = new Set(['id', 'rowId', '_createdBy', '_owner', '_updatedBy', '_createdAt', '_updatedAt', 'autoid', '_deletedAt', '_deletedBy', 'isDraft']);

/**
 * Writes flat records (`row-shape.ts`'s `rowPresenter`) as text, byte for byte what the flat row
 * schema's serializer makes of them: its own keys first (`id`, `rowId`, then the system keys when
 * asked for), then each field's key in order and the process fields, a key whose value reads
 * `undefined` left out. Null when a field's key is one of the schema's own or a process field's.
 */
function flatRowWriter(fields: FieldMeta[], keys: string[], systemFields: boolean): RowTextWriter | null {
  const taken = new Set(systemFields ? PROCESS_FIELD_KEYS : []);
  for (const key of keys) {
    if (FLAT_OWN_KEYS.has(key) || taken.has(key)) return null;
    taken.add(key);
  }
  const fieldKeys = keys.map((key) => `,${JSON.stringify(key)}:`);
  const userJson = perUser(
    (id, account) =>
      `{"accountId":${JSON.stringify(id)},"fullname":${JSON.stringify(account?.fullname ?? '')},"avatar":${JSON.stringify(account?.avatar ?? '')},"status":${JSON.stringify(account?.status ?? 0)}}`,
  );
  return (row, refs, now) => {
    const id = JSON.stringify(row.id);
    let json = `{"id":${id},"rowId":${id}`;
    if (systemFields) {
      json += `,"_createdBy":${userJson(row._created_by, refs)},"_owner":${userJson(row._owner, refs)},"_updatedBy":${userJson(row._updated_by, refs)}`;
      json += `,"_createdAt":"${new Date(row._created_at).toISOString()}","_updatedAt":"${new Date(row._updated_at).toISOString()}","autoid":${JSON.stringify(row._autoid)}`;
    }
    const record = { createdAt: row._created_at };
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const value = field.fieldType.read(row[field.id] ?? null, field, refs, record);
      if (value !== undefined) json += fieldKeys[i] + JSON.stringify(value);
    }
    if (systemFields) {
      for (const [key, value] of Object.entries(presentProcessFields(row, refs, now))) {
        if (value !== undefined) json += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
      }
    }
    return new JsonText(`${json}}`);
  };
}
