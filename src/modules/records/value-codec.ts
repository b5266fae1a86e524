import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { FieldMeta, ReferenceKind } from '../../fields/field-type.js';
import type { WorksheetSchema } from '../worksheets/index.js';

/** One `{id, value}` item of a write body. */
export interface FieldValueInput {
  id?: string;
  value?: unknown;
  type?: number;
}

/**
 * Ids of accounts, departments and regions that values refer to, checked (written values) or
 * resolved (read values) in one query per kind. `writtenIn` keeps the first field that wrote each
 * (`kind:id`), so that a refusal names it; `regionLevels` holds, for each region code written into a
 * region field, the deepest level it may be and where it was written (for the message).
 */
export type ReferenceSet = Record<ReferenceKind, Set<string>> & { writtenIn?: Map<string, string>; regionLevels: Map<string, { deepestLevel: number; label: string }> };

export function emptyReferenceSet(): ReferenceSet {
  return { account: new Set(), department: new Set(), region: new Set(), regionLevels: new Map(), writtenIn: new Map() };
}

/** Notes a region code written into a field that takes regions down to `deepestLevel`; the strictest field is kept. */
function noteRegionLevel(references: ReferenceSet, code: string, deepestLevel: number, label: string): void {
  const noted = references.regionLevels.get(code);
  if (!noted || deepestLevel < noted.deepestLevel) references.regionLevels.set(code, { deepestLevel, label });
}

const requiredBySchema = new WeakMap<WorksheetSchema, FieldMeta[]>();

/** The required fields of a schema, found once per loaded schema rather than once per row. */
function requiredFields(schema: WorksheetSchema): FieldMeta[] {
  let required = requiredBySchema.get(schema);
  if (!required) requiredBySchema.set(schema, (required = schema.fields.filter((f) => f.required)));
  return required;
}

/**
 * Converts the `fields` of one written row into stored values, by field id; the ids the values refer
 * to are added to `references`. `where` names the row in
 * messages (`rows[3]`). On create every required field must be given a value; on update only
 * the sent fields are checked; a draft (`drafts/`) is checked value by value, required fields not yet.
 */
export function encodeValues(
  schema: WorksheetSchema,
  input: FieldValueInput[],
  where: string,
  timeZone: string,
  mode: 'create' | 'update' | 'draft',
  references: ReferenceSet,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  // One context for the whole row; its label is only spelled out when a type reports a problem.
  const cell = { index: 0, name: '' };
  const context: { timeZone: string; mode?: number; readonly label: string } = {
    timeZone,
    get label() {
      return `${where}fields[${cell.index}] "${cell.name}"`;
    },
  };
  for (let index = 0; index < input.length; index++) {
    const item = input[index];
    if (typeof item?.id !== 'string' || item.id === '') throw AppError.invalidParameters(`${where}fields[${index}].id is required`);
    const field = schema.byKey.get(item.id);
    if (!field) throw AppError.invalidValue(`${where}fields[${index}].id: no field "${item.id}" in this worksheet`);
    if (values.has(field.id)) throw AppError.invalidValue(`${where}fields[${index}].id: field "${field.name}" is given twice`);
    const type = field.fieldType;
    if (!type.write) throw AppError.invalidValue(`${where}fields[${index}]: field "${field.name}" (${type.name}) cannot be written`);
    cell.index = index;
    cell.name = field.name;
    context.mode = item.type;
    const stored = type.write(item.value, field, context);
    // A system-produced value (auto number, computed) sent empty is no change, not a clearing.
    if (type.storage === 'none' || type.readOnly) continue;
    const refs = stored === null ? null : type.references?.(stored, field);
    if (refs) {
      for (const id of refs.ids) {
        references[refs.kind].add(id);
        if (references.writtenIn && !references.writtenIn.has(`${refs.kind}:${id}`)) references.writtenIn.set(`${refs.kind}:${id}`, context.label);
      }
      if (refs.deepestLevel !== undefined) for (const id of refs.ids) noteRegionLevel(references, id, refs.deepestLevel, context.label);
    }
    values.set(field.id, stored);
  }
  for (const field of mode === 'draft' ? [] : requiredFields(schema)) {
    if (mode === 'update' && !values.has(field.id)) continue;
    const stored = values.has(field.id) ? values.get(field.id) : null;
    if (field.fieldType.isEmpty(stored)) {
      throw new AppError(ErrorCode.RequiredFieldEmpty, 400, `${where}field "${field.name}" (${field.alias || field.id}) is required and cannot be empty`);
    }
  }
  return values;
}
