import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs } from '../jobs/index.js';
import { lockBase, refreshBaseStatus } from './base-status.js';
import { forgetIndexedWorksheets } from './indexed-worksheets.js';
import { indexSourceJob } from './index-source-job.js';
import { passageStore } from './store/index.js';

/**
 * Knowledge sources kept in step with the worksheets they index (docs/knowledge.md, "Worksheet
 * and field deletion"). Worksheets and fields are deleted for good (there is no recycle bin for
 * them, only for records), so their sources follow in the same transaction as the deletion:
 * - a deleted worksheet takes its sources with it, and their passages; each base's status is
 *   settled again (a failed source gone may make it ready);
 * - a deleted field is dropped from the sources that index it, which are queued for a full
 *   indexing (their passages still hold the field's text: searches leave such passages out until
 *   the job has replaced them); a source left with no field goes as a deleted worksheet's does.
 * Called by the worksheets module, which the knowledge module itself reads through: hence here,
 * outside both, like the record writer's re-index hook.
 */

interface SourceRow {
  id: string;
  knowledge_id: string;
  worksheet_id: string;
  field_ids: string;
  app_id: string;
}

/** The worksheets' sources, each base locked (in id order, as every other path locks them) for the rest of `trx`. */
async function lockedSources(trx: Executor, worksheetIds: readonly string[]): Promise<SourceRow[]> {
  if (worksheetIds.length === 0) return [];
  const query = () =>
    trx
      .selectFrom('knowledge_sources as s')
      .innerJoin('knowledge_bases as b', 'b.id', 's.knowledge_id')
      .select(['s.id', 's.knowledge_id', 's.worksheet_id', 's.field_ids', 'b.app_id'])
      .where('s.worksheet_id', 'in', [...worksheetIds])
      .orderBy('s.knowledge_id')
      .orderBy('s.id');
  const found = await query().execute();
  if (found.length === 0) return [];
  for (const base of new Map(found.map((s) => [s.knowledge_id, s.app_id]))) await lockBase(trx, base[1], base[0]);
  // Read again under the locks: a source removed or changed meanwhile is taken as it is now.
  return query().execute();
}

/**
 * Takes the row locks of the bases indexing these worksheets for the rest of `trx`: a structure
 * change takes them before its DDL, as re-indexing jobs take them before reading records, so that
 * the two wait for each other instead of deadlocking.
 */
export async function lockIndexingBases(trx: Executor, worksheetIds: readonly string[]): Promise<void> {
  await lockedSources(trx, worksheetIds);
}

async function removeSources(trx: Executor, dialect: SqlDialect, sources: readonly SourceRow[]): Promise<void> {
  if (sources.length === 0) return;
  const store = passageStore(dialect);
  for (const source of sources) await store.removeAll(trx, source.knowledge_id, source.id);
  await trx
    .deleteFrom('knowledge_sources')
    .where(
      'id',
      'in',
      sources.map((s) => s.id),
    )
    .execute();
  onCommit(trx, () => forgetIndexedWorksheets(sources.map((s) => s.worksheet_id)));
}

async function settleBases(trx: Executor, sources: readonly SourceRow[]): Promise<void> {
  for (const [id, appId] of new Map(sources.map((s) => [s.knowledge_id, s.app_id]))) await refreshBaseStatus(trx, { id, appId });
}

/**
 * A worksheet deleted for good, in its deletion's transaction: the sources indexing it go, with
 * their passages.
 * @example await removeWorksheetSources(trx, ctx.dialect, schema.id)
 */
export async function removeWorksheetSources(trx: Executor, dialect: SqlDialect, worksheetId: string): Promise<void> {
  const sources = await lockedSources(trx, [worksheetId]);
  await removeSources(trx, dialect, sources);
  await settleBases(trx, sources);
}

/**
 * After a change of the structure of these worksheets, in its transaction: every source of them
 * that names a field they no longer have drops it and is queued for a full indexing; one left with
 * no field is removed. `fieldsOf` gives the ids of the fields each worksheet has now, and is asked
 * only when a source indexes one of them.
 * @example await dropRemovedFields(trx, ctx.dialect, [schema.id], (ids) => repository.fieldIdsOf(trx, ids), ctx.now())
 */
export async function dropRemovedFields(trx: Executor, dialect: SqlDialect, worksheetIds: readonly string[], fieldsOf: (worksheetIds: string[]) => Promise<ReadonlySet<string>>, now: number): Promise<void> {
  const sources = await lockedSources(trx, worksheetIds);
  if (sources.length === 0) return;
  const present = await fieldsOf([...new Set(sources.map((s) => s.worksheet_id))]);
  const changed: SourceRow[] = [];
  const emptied: SourceRow[] = [];
  for (const source of sources) {
    const fieldIds = JSON.parse(source.field_ids) as string[];
    const kept = fieldIds.filter((id) => present.has(id));
    if (kept.length === fieldIds.length) continue;
    if (kept.length === 0) {
      emptied.push(source);
      continue;
    }
    await trx.updateTable('knowledge_sources').set({ field_ids: JSON.stringify(kept), status: 'queued', progress: 0, total: 0, error: null }).where('id', '=', source.id).execute();
    changed.push(source);
  }
  await removeSources(trx, dialect, emptied);
  if (changed.length > 0) {
    await enqueueJobs(
      trx,
      changed.map((s) => indexSourceJob(s.id)),
      now,
    );
    onCommit(trx, announceJobs);
  }
  await settleBases(trx, [...changed, ...emptied]);
}
