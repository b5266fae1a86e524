import type { Executor } from '../../db/connection.js';
import { inTransaction } from '../../db/transaction.js';
import { systemActor } from '../../access/index.js';
import type { JobHandler } from '../../jobs/index.js';
import { refreshBaseStatus } from '../../knowledge/base-status.js';
import { INDEX_SOURCE_JOB } from '../../knowledge/index-source-job.js';
import type { Actor } from '../../shared/actor.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { liveIdsAfter, liveRecordCount } from '../records/index.js';
import { loadSchema } from '../worksheets/index.js';
import { indexRecords } from './indexing.js';
import * as repository from './repository.js';

/**
 * The full indexing of a worksheet source: every live record's passages, a page of records per
 * transaction (each fenced on the job's lease, with the source's `progress`), then the source and
 * its base marked ready. A job that fails for good marks them failed with the reason. Run again
 * after a crash, it starts over: replacing a record's passages twice gives the same passages.
 */

/** Records indexed per transaction. */
export const INDEX_PAGE = 500;

export interface IndexJobDeps {
  db: Executor;
  /** A service context acting as `actor` on the root connection. */
  contextOf(actor: Actor): ServiceContext;
}

export async function indexingContext(deps: IndexJobDeps, base: repository.KnowledgeBase): Promise<ServiceContext> {
  const organizationId = await repository.organizationOfApp(deps.db, base.appId);
  return deps.contextOf(systemActor({ job: 'knowledge-index', appId: base.appId, organizationId, accountId: base.createdBy, writes: false }));
}

export function indexSourceHandler(deps: IndexJobDeps): JobHandler {
  const { db } = deps;
  const sourceOf = async (payload: unknown) => {
    const source = await repository.sourceById(db, String((payload as { sourceId?: unknown }).sourceId));
    const base = source && (await repository.baseById(db, source.knowledgeId));
    return source && base ? { source, base } : null;
  };
  return {
    kind: INDEX_SOURCE_JOB,
    async run(job, lease) {
      // A source or base deleted meanwhile: nothing left to do.
      const found = await sourceOf(job.payload);
      if (!found) return;
      const { source, base } = found;
      const ctx = await indexingContext(deps, base);
      const schema = await loadSchema(ctx, source.worksheetId);
      await inTransaction(db, async (trx) => {
        await lease.fence(trx);
        await repository.updateSource(trx, source.id, { status: 'indexing', progress: 0, total: await liveRecordCount({ ...ctx, db: trx }, schema), error: null });
      });
      let after: string | null = null;
      let done = 0;
      for (;;) {
        const ids = await liveIdsAfter(ctx, schema, after, INDEX_PAGE);
        if (ids.length === 0) break;
        done += ids.length;
        const gone = await inTransaction(db, async (trx) => {
          await lease.fence(trx);
          // Under the base's lock, as a deletion of the source (or of its worksheet) takes it: a
          // page is never added to a source removed meanwhile, which would leave its passages behind.
          // The base's embedder is read under it too: a re-embedding switches it under the same lock,
          // so a page is embedded either before the switch (and re-embedded by it) or after.
          const current = await repository.claimBase(trx, base.appId, base.id);
          if (!current || !(await repository.sourceById(trx, source.id))) return true;
          await indexRecords(ctx, trx, [{ ...source, embedder: current.embedder }], ids);
          await repository.updateSource(trx, source.id, { progress: done });
          return false;
        });
        if (gone) return;
        after = ids[ids.length - 1]!;
      }
      await inTransaction(db, async (trx) => {
        await lease.finish(trx);
        await repository.updateSource(trx, source.id, { status: 'ready', progress: done, total: done });
        await refreshBaseStatus(trx, base);
      });
    },
    async giveUp(job, error) {
      const found = await sourceOf(job.payload);
      if (!found) return;
      await inTransaction(db, async (trx) => {
        await repository.updateSource(trx, found.source.id, { status: 'failed', error: error instanceof Error ? error.message : String(error) });
        await refreshBaseStatus(trx, found.base);
      });
    },
  };
}
