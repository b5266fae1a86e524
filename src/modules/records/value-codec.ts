import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { FieldMeta, ReferenceKind } from '../../fields/field-type.js';
import { fieldTypeOf } from '../../fields/registry.js';
import type { WorksheetSchema } from '../worksheets/index.js';

/** One `{id, value}` item of a write body. */
export interface FieldValueInput {
  id?: string;
  value?: unknown;
  type?: number;
}

/** The stored values of one written row, by field id, and the ids it refers to. */
export interface EncodedValues {
  values: Map<string, unknown>;
}

/** Ids of accounts and departments that written values refer to, checked in one query each. */
export type ReferenceSet = Record<ReferenceKind, Set<string>>;

export function emptyReferenceSet(): ReferenceSet {
  return { account: new Set(), department: new Set() };
}

function isEmptyValue(field: FieldMeta, stored: unknown): boolean {
  const type = fieldTypeOf(field.type);
  return type.isEmpty ? type.isEmpty(stored) : stored === null;
}

/**
 * Converts the `fields` of one written row into stored values. `where` names the row in
 * messages (`rows[3]`). On create every required field must be given a value; on update only
 * the sent fields are checked.
 */
export function encodeValues(
  schema: WorksheetSchema,
  input: FieldValueInput[],
  where: string,
  timeZone: string,
  mode: 'create' | 'update',
  references: ReferenceSet,
): EncodedValues {
  const values = new Map<string, unknown>();
  input.forEach((item, index) => {
    const at = `${where}fields[${index}]`;
    if (typeof item?.id !== 'string' || item.id === '') throw AppError.invalidParameters(`${at}.id is required`);
    const field = schema.byKey.get(item.id);
    if (!field) throw AppError.invalidValue(`${at}.id: no field "${item.id}" in this worksheet`);
    if (values.has(field.id)) throw AppError.invalidValue(`${at}.id: field "${field.name}" is given twice`);
    const type = fieldTypeOf(field.type);
    if (!type.write) throw AppError.invalidValue(`${at}: field "${field.name}" (${type.name}) cannot be written`);
    const stored = type.write(item.value, field, { timeZone, label: `${at} "${field.name}"` });
    // A system-produced value (auto number, computed) sent empty is no change, not a clearing.
    if (!type.column || type.readOnly) return;
    const refs = stored === null ? null : type.references?.(stored);
    if (refs) for (const id of refs.ids) references[refs.kind].add(id);
    values.set(field.id, stored);
  });
  const required = mode === 'create' ? schema.fields.filter((f) => f.required) : schema.fields.filter((f) => f.required && values.has(f.id));
  for (const field of required) {
    const stored = values.has(field.id) ? values.get(field.id) : null;
    if (isEmptyValue(field, stored)) {
      throw new AppError(ErrorCode.RequiredFieldEmpty, 400, `${where}field "${field.name}" (${field.alias || field.id}) is required and cannot be empty`);
    }
  }
  return { values };
}
