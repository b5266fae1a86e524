import type { FieldMeta, RelatedComputation, RowComputation } from '../../../fields/field-type.js';
import { relatedSourceOf } from '../../../fields/computed/related-config.js';
import type { WorksheetSchema } from '../../worksheets/index.js';

/** Computed fields of a schema, found once per loaded schema. */
interface Computed {
  /** Row computations in an order where each comes after the ones it reads. */
  rowOrder: FieldMeta[];
  related: FieldMeta[];
}

const bySchema = new WeakMap<WorksheetSchema, Computed>();

export function rowComputation(field: FieldMeta): RowComputation | null {
  const computed = field.fieldType.computed;
  return computed?.kind === 'row' ? computed : null;
}

export function relatedComputation(field: FieldMeta): RelatedComputation | null {
  const computed = field.fieldType.computed;
  return computed?.kind === 'related' ? computed : null;
}

/** Row computations ordered so that inputs come first (definitions are acyclic: `worksheets/computed-fields.ts`). */
function orderRowComputations(fields: FieldMeta[]): FieldMeta[] {
  const computed = new Map(fields.filter((f) => rowComputation(f)).map((f) => [f.id, f]));
  const ordered: FieldMeta[] = [];
  const placed = new Set<string>();
  const place = (field: FieldMeta, path: Set<string>) => {
    if (placed.has(field.id) || path.has(field.id)) return;
    path.add(field.id);
    for (const input of rowComputation(field)!.inputs(field)) {
      const dependency = computed.get(input);
      if (dependency) place(dependency, path);
    }
    placed.add(field.id);
    ordered.push(field);
  };
  for (const field of computed.values()) place(field, new Set());
  return ordered;
}

export function computedOf(schema: WorksheetSchema): Computed {
  let found = bySchema.get(schema);
  if (!found) {
    found = { rowOrder: orderRowComputations(schema.fields), related: schema.fields.filter((f) => relatedComputation(f)) };
    bySchema.set(schema, found);
  }
  return found;
}

/**
 * The row computations to redo when these fields changed (or that are asked for): those reading
 * them, directly or through another, in order.
 */
export function rowComputationsAfter(schema: WorksheetSchema, changed: Set<string>, asked: Set<string> = new Set()): FieldMeta[] {
  const reached = new Set(changed);
  const due: FieldMeta[] = [];
  for (const field of computedOf(schema).rowOrder) {
    if (asked.has(field.id) || rowComputation(field)!.inputs(field).some((input) => reached.has(input))) {
      due.push(field);
      reached.add(field.id);
    }
  }
  return due;
}

/** Lookups and rollups of a schema that follow one of these relation fields. */
export function relatedComputationsVia(schema: WorksheetSchema, relationFields: Set<string>): FieldMeta[] {
  return computedOf(schema).related.filter((field) => relationFields.has(relatedSourceOf(field).relationField));
}
