import type { FieldMeta } from '../../fields/field-type.js';
import { referencedKeys, replaceReferences } from '../../fields/computed/field-references.js';
import { relatedSourceOf } from '../../fields/computed/related-config.js';
import { linkageOf } from '../../fields/types/relation.js';
import { AppError } from '../../shared/app-error.js';
import type { WorksheetSchema } from './worksheet-schema.js';

/**
 * The structure side of computed fields (formula, concatenate, lookup, rollup): their references are
 * resolved to field ids and checked when they are defined; circles between computed fields, across
 * worksheets too, are refused; and a field that a computed field reads cannot be removed. Run inside
 * the structure change's transaction, on the application's schemas as the change leaves them.
 */

function find(fields: FieldMeta[], key: string): FieldMeta | undefined {
  return fields.find((f) => f.id === key) ?? fields.find((f) => f.alias !== '' && f.alias === key);
}

/** The conditions of a filter tree, each with a way to rename its field. */
function conditionsOf(node: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (typeof node !== 'object' || node === null) return found;
  const record = node as Record<string, unknown>;
  if (typeof record.field === 'string') found.push(record);
  if (Array.isArray(record.children)) for (const child of record.children) conditionsOf(child, found);
  return found;
}

/** The fields a computed field reads: its inputs, or its relation, the source field and the fields of a rollup's filter (ids). */
export function dependenciesOf(field: FieldMeta): string[] {
  const computed = field.fieldType.computed;
  if (!computed) return [];
  if (computed.kind === 'row') return computed.inputs(field);
  const { relationField, sourceField } = relatedSourceOf(field);
  const filtered = conditionsOf(field.config.filter).map((condition) => String(condition.field));
  return [relationField, ...(sourceField ? [sourceField] : []), ...filtered];
}

function resolveRowComputation(field: FieldMeta, fields: FieldMeta[]): void {
  const computation = field.fieldType.computed;
  if (computation?.kind !== 'row') return;
  const label = `field "${field.name}"`;
  const ids = new Map<string, string>();
  const inputs = new Map<string, FieldMeta>();
  const config = { ...field.config };
  for (const configKey of computation.referenceKeys) {
    if (typeof config[configKey] !== 'string') continue;
    const text = config[configKey] as string;
    for (const key of referencedKeys(text)) {
      const input = find(fields, key);
      if (!input) throw AppError.invalidValue(`${label}: $${key}$ names no field of this worksheet`);
      if (input.id === field.id) throw AppError.invalidValue(`${label}: it cannot read itself ($${key}$)`);
      const refusal = computation.refusesInput(input);
      if (refusal) throw AppError.invalidValue(`${label}: $${key}$ cannot be used: ${refusal}`);
      ids.set(key, input.id);
      inputs.set(input.id, input);
    }
    config[configKey] = replaceReferences(text, (key) => `$${ids.get(key) ?? key}$`);
  }
  field.config = config;
  // Checked now (a formula parses), so that a bad definition is refused here, never met on a write.
  const kept = computation.settle?.(field, [...inputs.values()]);
  if (kept) field.config = { ...field.config, ...kept };
}

/** Compiles a rollup's filter for the related worksheet (its fields as the change leaves them); throws 10002 naming the condition. */
export type FilterCheck = (worksheetId: string, fields: FieldMeta[], filter: unknown, path: string) => void;

function resolveRelatedComputation(field: FieldMeta, fields: FieldMeta[], fieldsOf: (worksheetId: string) => FieldMeta[] | undefined, checkFilter: FilterCheck): void {
  const computation = field.fieldType.computed;
  if (computation?.kind !== 'related') return;
  const label = `field "${field.name}"`;
  const { relationField, sourceField } = relatedSourceOf(field);
  const relation = find(fields, relationField);
  if (!relation || relation.fieldType.storage !== 'links') throw AppError.invalidValue(`${label}: config.relationField: no relation field "${relationField}" in this worksheet`);
  const relatedId = linkageOf(relation).dataSource;
  const relatedFields = fieldsOf(relatedId) ?? [];
  if (field.config.filter !== undefined) {
    checkFilter(relatedId, relatedFields, field.config.filter, `field "${field.name}" config.filter`);
    // Stored with field ids, so that renaming an alias cannot break it and removing a field it tests is refused.
    const filter = structuredClone(field.config.filter);
    for (const condition of conditionsOf(filter)) {
      const named = find(relatedFields, String(condition.field));
      if (named) condition.field = named.id;
    }
    field.config = { ...field.config, filter };
  }
  const config: Record<string, unknown> = { ...field.config, relationField: relation.id };
  if (sourceField) {
    const source = find(relatedFields, sourceField);
    if (!source) throw AppError.invalidValue(`${label}: config.sourceField: no field "${sourceField}" in the worksheet "${relation.name}" relates to`);
    const refusal = computation.refusesSource(source, field);
    if (refusal) throw AppError.invalidValue(`${label}: config.sourceField: ${refusal}`);
    Object.assign(config, { sourceField: source.id, sourceType: source.type });
  }
  field.config = config;
}

/**
 * Resolves the references of new or edited computed fields (`due`, members of `fields`, the
 * worksheet's fields as the change leaves them) to ids, in place, and checks them. `fieldsOf` gives
 * another worksheet's fields (for lookups and rollups).
 */
export function resolveComputedFields(due: FieldMeta[], fields: FieldMeta[], fieldsOf: (worksheetId: string) => FieldMeta[] | undefined, checkFilter: FilterCheck): void {
  for (const field of due) {
    resolveRowComputation(field, fields);
    resolveRelatedComputation(field, fields, fieldsOf, checkFilter);
  }
}

/** Throws 10002 when computed fields of the application read each other in a circle. */
export function refuseCycles(schemas: WorksheetSchema[]): void {
  const byId = new Map<string, FieldMeta>();
  for (const schema of schemas) for (const field of schema.fields) byId.set(field.id, field);
  const done = new Set<string>();
  const visit = (field: FieldMeta, path: FieldMeta[]) => {
    if (done.has(field.id)) return;
    const at = path.findIndex((f) => f.id === field.id);
    if (at >= 0) {
      const circle = [...path.slice(at), field].map((f) => `"${f.name}"`).join(' → ');
      throw AppError.invalidValue(`computed fields read each other in a circle: ${circle}`);
    }
    for (const id of dependenciesOf(field)) {
      const dependency = byId.get(id);
      if (dependency?.fieldType.computed) visit(dependency, [...path, field]);
    }
    done.add(field.id);
  };
  for (const field of byId.values()) if (field.fieldType.computed) visit(field, []);
}

/**
 * Throws 10002 naming the computed fields that read any of `removed` (fields about to go), unless
 * they go too. A relation a lookup follows, or a number a formula reads, must stay.
 */
export function refuseRemovingInputs(schemas: WorksheetSchema[], removed: Set<string>, what: string): void {
  const dependants: string[] = [];
  for (const schema of schemas) {
    for (const field of schema.fields) {
      if (removed.has(field.id)) continue;
      const reads = dependenciesOf(field).filter((id) => removed.has(id));
      if (reads.length > 0) dependants.push(`"${field.name}" (${field.fieldType.name}) of worksheet "${schema.name}"`);
    }
  }
  if (dependants.length > 0) throw AppError.invalidValue(`${what} cannot be removed: ${dependants.join(', ')} read${dependants.length === 1 ? 's' : ''} it; remove or change ${dependants.length === 1 ? 'that field' : 'those fields'} first`);
}
