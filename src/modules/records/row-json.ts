import type { FieldMeta, ResolvedReferences } from '../../fields/field-type.js';
import { JsonText } from '../../shared/json-text.js';
import type { StoredRow } from './presenter.js';

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
export function specRowWriter(fields: FieldMeta[]): (row: StoredRow, refs: ResolvedReferences) => JsonText {
  const opens = fields.map((field) => `{"id":${JSON.stringify(field.id)},"value":`);
  const closes = fields.map((field) => `,"type":${JSON.stringify(String(field.type))},"controlName":${JSON.stringify(field.name)}}`);
  const users = new Map<string, string>();
  const userJson = (id: string, refs: ResolvedReferences): string => {
    let text = users.get(id);
    if (text === undefined) {
      text = `{"accountId":${JSON.stringify(id)},"fullname":${JSON.stringify(refs.accounts.get(id)?.fullname ?? '')}}`;
      users.set(id, text);
    }
    return text;
  };
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
