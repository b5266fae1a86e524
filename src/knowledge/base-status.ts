import type { Executor } from '../db/connection.js';

/**
 * A knowledge base's row lock and its `status`, shared by the knowledge module and by what keeps
 * sources in step with worksheet changes (`source-upkeep.ts`), which the worksheets module calls
 * without importing the knowledge module (that one reads worksheets and records).
 */

/**
 * Takes the base's row lock for the rest of `trx` (a no-op UPDATE), so that an edit, a deletion
 * and an indexing job's end never interleave. Whether the base exists.
 * @example if (await lockBase(trx, appId, id)) … // the base is held until trx ends
 */
export async function lockBase(db: Executor, appId: string, id: string): Promise<boolean> {
  const result = await touchBases(db, appId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Takes the row locks of every base of an application, in one statement: what removes passages of
 * several bases takes all their locks before the vector change log's (the order every passage
 * writer keeps: its base, then the log).
 */
export async function lockBasesOfApp(db: Executor, appId: string): Promise<void> {
  await touchBases(db, appId).execute();
}

/** A no-op update of an application's bases: the row lock without a change. */
function touchBases(db: Executor, appId: string) {
  return db.updateTable('knowledge_bases').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('app_id', '=', appId);
}

/**
 * Whether any source or document of the base is still waiting or being indexed, whether it is being
 * re-embedded (`next_embedder`, migration 0039), and whether any of them (or its last re-embedding)
 * failed.
 */
async function indexingState(db: Executor, knowledgeId: string): Promise<{ busy: boolean; reembedding: boolean; failed: string | null }> {
  const base = await db.selectFrom('knowledge_bases').select(['next_embedder', 'reembed_error']).where('id', '=', knowledgeId).executeTakeFirst();
  const sources = await db.selectFrom('knowledge_sources').select(['status', 'error']).where('knowledge_id', '=', knowledgeId).execute();
  const documents = await db.selectFrom('knowledge_documents').select(['status', 'error']).where('knowledge_id', '=', knowledgeId).execute();
  const all = [...sources, ...documents];
  const busy = all.some((s) => s.status === 'queued' || s.status === 'indexing' || s.status === 'ingesting');
  const failed = all.find((s) => s.status === 'failed');
  return { busy, reembedding: Boolean(base?.next_embedder), failed: failed ? (failed.error ?? 'indexing failed') : (base?.reembed_error ?? null) };
}

/**
 * Sets a base's status from its sources, documents and re-embedding: `indexing` while any source or
 * document waits or runs, else `reembedding` while its re-embedding runs, `failed` when one of them
 * (or the last re-embedding) failed, `ready` otherwise. Takes the base's row lock first, so that two
 * jobs ending at once each see the other's end.
 */
export async function refreshBaseStatus(trx: Executor, base: { id: string; appId: string }): Promise<void> {
  if (!(await lockBase(trx, base.appId, base.id))) return;
  const state = await indexingState(trx, base.id);
  const status = state.busy ? 'indexing' : state.reembedding ? 'reembedding' : state.failed ? 'failed' : 'ready';
  await trx
    .updateTable('knowledge_bases')
    .set({ status, error: status === 'failed' ? state.failed : null })
    .where('id', '=', base.id)
    .execute();
}
