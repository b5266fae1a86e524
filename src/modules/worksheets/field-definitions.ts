import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { FieldMeta, FieldType } from '../../fields/field-type.js';
import { resolveFieldType } from '../../fields/registry.js';

/** A field definition as clients write it (worksheet creation, addFields, editFields). */
export interface FieldDefinitionInput {
  id?: string;
  name?: string;
  alias?: string;
  type?: string | number;
  required?: boolean;
  isTitle?: boolean;
  isUnique?: boolean;
  options?: Array<Record<string, unknown>>;
  config?: Record<string, unknown>;
  precision?: number;
  subType?: number;
  max?: number;
  /** Relation: the related worksheet (id, alias or `selfRelation`). */
  dataSource?: string;
  /** Formula and Concatenate: the expression, fields as `$idOrAlias$`. */
  expression?: string;
  /** Relation settings as the public interface writes them. */
  relation?: { bidirectional?: boolean; showFields?: string[] };
  description?: string;
  desc?: string;
  remark?: string;
}

/** Top-level definition keys that are the type's settings; they are kept in `config`. */
const CONFIG_KEYS = ['precision', 'subType', 'max', 'dataSource', 'expression'] as const;

const ALIAS = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_NAME = 100;

function checkName(name: unknown, where: string): string {
  if (typeof name !== 'string' || name.trim() === '') throw AppError.invalidParameters(`${where}.name is required`);
  if (name.trim().length > MAX_NAME) throw AppError.invalidValue(`${where}.name: at most ${MAX_NAME} characters`);
  return name.trim();
}

function checkAlias(alias: unknown, where: string): string {
  if (alias === undefined || alias === null || alias === '') return '';
  if (typeof alias !== 'string' || !ALIAS.test(alias)) {
    throw AppError.invalidValue(`${where}.alias: "${String(alias)}" must start with a letter and hold only letters, digits and _ (at most 64)`);
  }
  return alias;
}

function mergedConfig(input: FieldDefinitionInput, base: Record<string, unknown>): Record<string, unknown> {
  const config = { ...base, ...(input.config ?? {}) };
  // Set by the server while it computes a field in the background; a change decides it anew.
  delete config.recomputing;
  for (const key of CONFIG_KEYS) if (input[key] !== undefined) config[key] = input[key];
  // `relation: {bidirectional, showFields}` is kept flat in the config, as the newer interface writes it.
  if (input.relation?.bidirectional !== undefined) config.bidirectional = input.relation.bidirectional;
  if (input.relation?.showFields !== undefined) config.showFields = input.relation.showFields;
  return config;
}

/**
 * Runs the type's own checks. An edit that does not send `options` keeps the field's options
 * exactly as they are (deleted ones included); one that sends them replaces the list.
 */
function prepare(type: FieldType, name: string, input: FieldDefinitionInput, previous: FieldMeta | null) {
  const config = mergedConfig(input, previous?.config ?? {});
  if (!type.prepare) return { options: [], config };
  // A choice field using an option set takes its options from the set (option-set-fields.ts): options sent for it are not used.
  const usesSet = type.valueKind === 'choices' && typeof config.dataSource === 'string' && config.dataSource !== '';
  const options = usesSet ? undefined : input.options;
  if (previous && options === undefined) {
    const prepared = type.prepare({ name, options: previous.options.filter((o) => !o.isDeleted), config }, previous);
    return { ...prepared, options: prepared.options.length > 0 ? previous.options : prepared.options };
  }
  return type.prepare({ name, options: options ?? [], config }, previous);
}

function checkFlags(type: FieldType, field: FieldMeta, where: string): void {
  if (type.availability === 'planned') {
    throw AppError.invalidValue(`${where}.type: ${type.name} (${type.code}) fields are not available yet; they arrive with ${type.plannedFor}`);
  }
  if (field.required && !type.canBeRequired) throw AppError.invalidValue(`${where}.required: a ${type.name} field cannot be required`);
  if (field.isUnique && !type.indexable) throw AppError.invalidValue(`${where}.isUnique: a ${type.name} field cannot be unique`);
  if (field.isTitle && !type.canBeTitle) throw AppError.invalidValue(`${where}.isTitle: only a Text or AutoNumber field can be the title, not ${type.name}`);
}

/** A new field from its definition; `where` names it in messages (e.g. `addFields[2]`). */
export function defineField(input: FieldDefinitionInput, where: string, worksheetId: string, position: number): FieldMeta {
  const name = checkName(input.name, where);
  if (input.type === undefined || input.type === '') throw AppError.invalidParameters(`${where}.type is required`);
  const type = resolveFieldType(input.type, `${where}.type`);
  const prepared = prepare(type, name, input, null);
  const field: FieldMeta = {
    id: newObjectId(),
    worksheetId,
    name,
    alias: checkAlias(input.alias, where),
    type: type.code,
    required: input.required === true,
    isTitle: input.isTitle === true,
    isUnique: input.isUnique === true,
    position,
    options: prepared.options,
    config: prepared.config,
    description: input.description ?? input.desc ?? input.remark ?? '',
    fieldType: type,
  };
  checkFlags(type, field, where);
  return field;
}

/** An existing field with the sent properties changed; the others stay. */
export function editField(previous: FieldMeta, input: FieldDefinitionInput, where: string): FieldMeta {
  const name = input.name === undefined ? previous.name : checkName(input.name, where);
  const before = previous.fieldType;
  const type = input.type === undefined ? before : resolveFieldType(input.type, `${where}.type`);
  if (type.code !== before.code && (type.column !== before.column || type.valueKind !== before.valueKind)) {
    throw AppError.invalidValue(
      `${where}.type: a ${before.name} field cannot become ${type.name} (stored values would not fit); add a new field instead`,
    );
  }
  const prepared = prepare(type, name, input, previous);
  const field: FieldMeta = {
    ...previous,
    name,
    alias: input.alias === undefined ? previous.alias : checkAlias(input.alias, where),
    type: type.code,
    required: input.required ?? previous.required,
    isTitle: input.isTitle ?? previous.isTitle,
    isUnique: input.isUnique ?? previous.isUnique,
    options: prepared.options,
    config: prepared.config,
    description: input.description ?? input.desc ?? input.remark ?? previous.description,
    fieldType: type,
  };
  checkFlags(type, field, where);
  return field;
}

/** The title field added when a new worksheet defines no field that can be the title. */
function defaultTitleField(worksheetId: string): FieldMeta {
  return defineField({ name: 'Title', type: '2', isTitle: true }, 'fields[title]', worksheetId, 0);
}

/**
 * A new worksheet's fields with a title: the one flagged, else the first that can be one (Text or
 * AutoNumber), else a "Title" text field added first.
 */
export function withTitleField(fields: FieldMeta[], worksheetId: string): FieldMeta[] {
  if (fields.some((f) => f.isTitle)) return fields;
  const candidate = fields.find((f) => f.fieldType.canBeTitle);
  if (!candidate) return [defaultTitleField(worksheetId), ...fields];
  candidate.isTitle = true;
  return fields;
}

/**
 * Checks a worksheet's whole field set after a change: names and aliases unique, exactly one
 * title. When `newTitleId` is given (a field just flagged as title) the old title steps down.
 */
export function settleFieldSet(fields: FieldMeta[], newTitleId: string | null): FieldMeta[] {
  const names = new Set<string>();
  const aliases = new Set<string>();
  for (const field of fields) {
    if (names.has(field.name)) throw AppError.invalidValue(`field name "${field.name}" is used twice in this worksheet`);
    names.add(field.name);
    if (field.alias) {
      if (aliases.has(field.alias)) throw AppError.invalidValue(`field alias "${field.alias}" is used twice in this worksheet`);
      aliases.add(field.alias);
    }
  }
  const settled = newTitleId ? fields.map((f) => ({ ...f, isTitle: f.id === newTitleId })) : fields;
  const titles = settled.filter((f) => f.isTitle);
  if (titles.length > 1) throw AppError.invalidValue(`exactly one field can be the title; ${titles.map((f) => `"${f.name}"`).join(', ')} all are`);
  if (titles.length === 0) throw AppError.invalidValue('the worksheet needs a title field (a Text or AutoNumber field with isTitle: true)');
  return settled;
}
