import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../../fields/field-type.js';
import { relatedSourceOf } from '../../../fields/computed/related-config.js';
import { linkageOf } from '../../../fields/types/relation.js';
import { computedOf, relatedComputation, relatedComputationsVia, rowComputation, rowComputationsAfter } from './dependencies.js';
import { recomputeRelatedFields, recordsRelatingTo, type ComputeTime } from './related-values.js';
import { recomputeRowFields } from './row-values.js';
import type { World } from './world.js';

/**
 * Something that changed in some records of one worksheet, inside a write's transaction: values of
 * fields (for a relation field: its links), the records' life (deleted, restored, purged), or
 * lookups and rollups that must be computed again whatever changed.
 */
export interface Change {
  worksheetId: string;
  rowIds: string[];
  fields: Set<string>;
  liveness?: boolean;
  recompute?: Set<string>;
  /**
   * The records were just created: nothing elsewhere relates to them except through the links this
   * write made, which arrive as changes of their own, so no dependants are looked for.
   */
  created?: boolean;
}

/** The records whose computed values a write computed again, by worksheet id. */
export type Recomputed = Map<string, Set<string>>;

/** A bound on how far one write may spread: far beyond any real chain, and a guard against a cycle the definitions missed. */
const MOST_STEPS = 10_000;

/**
 * Keeps computed values current after a write, inside its transaction: for each change, the
 * lookups and rollups that follow a changed relation (or are asked for), then the formulas reading
 * what changed, are computed again for the changed records; then every lookup or rollup elsewhere
 * that reads this worksheet's changed fields (or counts its records) is recomputed for the records
 * relating to them, and so on until nothing is left. Cost per write: one read and one write per
 * computed field reached and per 500 records (see docs/architecture.md). Returns the records whose
 * computed values were computed again (business rules are checked on them too).
 */
export async function propagateChanges(trx: Executor, dialect: SqlDialect, world: World, initial: Change[], time: ComputeTime): Promise<Recomputed> {
  const recomputed: Recomputed = new Map();
  const queue = initial.filter((change) => change.rowIds.length > 0);
  for (let step = 0; queue.length > 0; step++) {
    if (step > MOST_STEPS) throw new Error('computed fields did not settle: a cycle between computed fields?');
    const change = merged(queue);
    const schema = world.get(change.worksheetId);
    if (!schema) continue;
    const changed = new Set(change.fields);
    const asked = [...(change.recompute ?? [])].map((id) => schema.byKey.get(id)).filter((f): f is FieldMeta => f !== undefined);
    const related = [...relatedComputationsVia(schema, change.fields).filter((f) => !change.recompute?.has(f.id)), ...asked.filter((f) => relatedComputation(f))];
    await recomputeRelatedFields(trx, dialect, world, schema, related, change.rowIds, time);
    for (const field of related) changed.add(field.id);
    const rowFields = rowComputationsAfter(schema, changed, new Set(asked.filter((f) => rowComputation(f)).map((f) => f.id)));
    await recomputeRowFields(trx, dialect, schema, rowFields, change.rowIds);
    for (const field of rowFields) changed.add(field.id);
    if (related.length > 0 || rowFields.length > 0) noteRecomputed(recomputed, schema.id, change.rowIds);
    if (!change.created) for (const next of await dependentsElsewhere(trx, world, change, changed)) queue.push(next);
  }
  return recomputed;
}

function noteRecomputed(recomputed: Recomputed, worksheetId: string, rowIds: string[]): void {
  const ids = recomputed.get(worksheetId) ?? new Set<string>();
  for (const id of rowIds) ids.add(id);
  recomputed.set(worksheetId, ids);
}

/**
 * Takes the first queued change together with every other queued change of the same worksheet, as
 * one: a write often reaches the same records twice (the other side of a relation gained links, and
 * a rollup there reads a field that was written), and each field is then computed once for them.
 */
function merged(queue: Change[]): Change {
  const first = queue.shift()!;
  const same = queue.filter((change) => change.worksheetId === first.worksheetId);
  if (same.length === 0) return first;
  for (const change of same) queue.splice(queue.indexOf(change), 1);
  const all = [first, ...same];
  return {
    worksheetId: first.worksheetId,
    rowIds: [...new Set(all.flatMap((change) => change.rowIds))],
    fields: new Set(all.flatMap((change) => [...change.fields])),
    liveness: all.some((change) => change.liveness === true),
    created: all.every((change) => change.created === true),
    recompute: new Set(all.flatMap((change) => [...(change.recompute ?? [])])),
  };
}

/** Lookups and rollups of any worksheet of the world that read these records' changed fields, or count them. */
async function dependentsElsewhere(trx: Executor, world: World, change: Change, changed: Set<string>): Promise<Change[]> {
  const next: Change[] = [];
  for (const other of world.values()) {
    const byRelation = new Map<FieldMeta, Set<string>>();
    for (const field of computedOf(other).related) {
      const { relationField, sourceField } = relatedSourceOf(field);
      const relation = other.byKey.get(relationField);
      if (!relation || linkageOf(relation).dataSource !== change.worksheetId) continue;
      // A filtered rollup may let other records through after any change of theirs.
      if (!change.liveness && !changed.has(sourceField) && !(field.config.filter && changed.size > 0)) continue;
      if (!byRelation.has(relation)) byRelation.set(relation, new Set());
      byRelation.get(relation)!.add(field.id);
    }
    for (const [relation, fields] of byRelation) {
      const rowIds = await recordsRelatingTo(trx, relation, change.rowIds);
      if (rowIds.length > 0) next.push({ worksheetId: other.id, rowIds, fields: new Set(), recompute: fields });
    }
  }
  return next;
}

/** Whether anything in the world is computed (if not, a write has nothing to keep current). */
export function worldComputes(world: World): boolean {
  for (const schema of world.values()) {
    const computed = computedOf(schema);
    if (computed.rowOrder.length > 0 || computed.related.length > 0) return true;
  }
  return false;
}
