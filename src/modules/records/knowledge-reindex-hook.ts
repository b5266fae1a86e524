import type { Executor } from '../../db/connection.js';
import { onCommit } from '../../db/transaction.js';
import { announceJobs, enqueueJobs } from '../../jobs/index.js';
import { worksheetIsIndexed } from '../../knowledge/indexed-worksheets.js';
import { reindexJob } from '../../knowledge/reindex-job.js';
import type { Recomputed } from './computed/propagate.js';
import type { RecordChange, RecordHook } from './writer.js';

/**
 * The knowledge outbox: a write to records of a worksheet a knowledge base indexes enqueues one
 * `knowledge.reindex` job naming them, in the write's transaction, so that their passages follow
 * every committed write (created, updated, deleted, restored, purged, or reached through a
 * relation) even across a crash, and no rolled-back write touches them. Whether a worksheet is
 * indexed is cached (`indexed-worksheets.ts`): other writes cost no query. The lookup and the job's
 * kind live in `src/knowledge`, not the knowledge module, which itself reads records through this
 * module. `triggerWorkflow: false` is about workflows and does not stop this.
 */
export const enqueueKnowledgeReindex: RecordHook = async (changes, hook) => {
  if (changes.length === 0) return;
  await enqueueFor(hook.trx, hook.schema.id, changes.map((c) => c.rowId), hook.now);
};

async function enqueueFor(trx: Executor, worksheetId: string, rowIds: readonly string[], now: number): Promise<void> {
  if (rowIds.length === 0 || !(await worksheetIsIndexed(trx, worksheetId))) return;
  await enqueueJobs(trx, [reindexJob(worksheetId, [...new Set(rowIds)])], now);
  onCommit(trx, announceJobs);
}

/**
 * Records a write changed only through computed values (the hooks saw the records it wrote and
 * reached): their text may have changed, so they are re-indexed too, one job per worksheet.
 */
export async function reindexRecomputed(trx: Executor, now: number, recomputed: Recomputed, changeLists: RecordChange[][]): Promise<void> {
  if (recomputed.size === 0) return;
  const seen = new Set(changeLists.flat().map((c) => `${c.worksheetId}:${c.rowId}`));
  for (const [worksheetId, rowIds] of recomputed) {
    await enqueueFor(trx, worksheetId, [...rowIds].filter((id) => !seen.has(`${worksheetId}:${id}`)), now);
  }
}
