import { inTransaction } from '../../db/transaction.js';
import type { JobHandler } from '../../jobs/index.js';
import { refreshBaseStatus } from '../../knowledge/base-status.js';
import { REINDEX_JOB, type ReindexPayload } from '../../knowledge/reindex-job.js';
import { indexingContext, type IndexJobDeps } from './index-job.js';
import { indexRecords } from './indexing.js';
import * as repository from './repository.js';

/**
 * Runs the `knowledge.reindex` jobs the record writer enqueues: the named records' passages are
 * built from the records as they are now, in every base indexing their worksheet, and replace the
 * kept ones (records no longer live lose theirs); the job finishes in the same transaction. Each
 * base's row is locked first, so that two jobs for the same records do not interleave their
 * replacements, and the later one reads what the earlier committed. A job failing for good marks
 * the worksheet's sources failed with the reason (the base's status follows): their passages are
 * out of date until the source is indexed again.
 */
export function reindexRecordsHandler(deps: IndexJobDeps): JobHandler {
  const { db } = deps;
  const payloadOf = (payload: unknown): ReindexPayload => {
    const { worksheetId, rowIds } = payload as Partial<ReindexPayload>;
    return { worksheetId: String(worksheetId), rowIds: Array.isArray(rowIds) ? rowIds.map(String) : [] };
  };
  return {
    kind: REINDEX_JOB,
    async run(job, lease) {
      const { worksheetId, rowIds } = payloadOf(job.payload);
      const sources = await repository.sourcesOfWorksheet(db, worksheetId);
      const base = sources.length > 0 ? await repository.baseById(db, sources[0]!.knowledgeId) : undefined;
      // No base indexes the worksheet any more: nothing to re-index.
      const ctx = base && (await indexingContext(deps, base));
      await inTransaction(db, async (trx) => {
        await lease.finish(trx);
        if (!ctx || !base) return;
        const knowledgeIds = [...new Set(sources.map((s) => s.knowledgeId))].sort();
        for (const id of knowledgeIds) await repository.claimBase(trx, base.appId, id);
        // Read again under the locks: a source removed meanwhile is not written to.
        await indexRecords({ ...ctx, db: trx }, trx, await repository.sourcesOfWorksheet(trx, worksheetId), rowIds);
      });
    },
    async giveUp(job, error) {
      const { worksheetId, rowIds } = payloadOf(job.payload);
      const reason = `re-indexing ${rowIds.length} written record(s) failed: ${error instanceof Error ? error.message : String(error)}`;
      await inTransaction(db, async (trx) => {
        const sources = await repository.sourcesOfWorksheet(trx, worksheetId);
        for (const source of sources) await repository.updateSource(trx, source.id, { status: 'failed', error: reason });
        for (const id of new Set(sources.map((s) => s.knowledgeId))) {
          const base = await repository.baseById(trx, id);
          if (base) await refreshBaseStatus(trx, base);
        }
      });
    },
  };
}
