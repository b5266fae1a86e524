import type { Executor } from '../../db/connection.js';
import { inTransaction, onCommit } from '../../db/transaction.js';
import { refreshBaseStatus } from '../../knowledge/base-status.js';
import { announceJobs, enqueueJobs, PermanentJobFailure, retryDelay, type JobHandler, type NewJob } from '../../jobs/index.js';
import { EmbedderError, type Embedder, type EmbedderSpec } from '../../knowledge/embedder.js';
import { embedderFor } from '../../knowledge/embedders/registry.js';
import type { PassageStore } from '../../knowledge/passage-store.js';
import { passageStore } from '../../knowledge/store/index.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { sameEmbedder } from './embedder-choice.js';
import { indexingContext, type IndexJobDeps } from './index-job.js';
import { embedAll } from './indexing.js';
import { cannotBeMended } from './embedding-failure.js';
import * as repository from './repository.js';

/**
 * Changing a knowledge base's embedder re-embeds it as a job (`knowledge.reembed`):
 * - The change stores the new spec as the base's `next_embedder` and enqueues the job in the same
 *   transaction; the base keeps its embedder, and searches keep using its vectors, until the end.
 * - The job embeds every passage's stored text (record and document passages alike) with the new
 *   embedder, a page per transaction (`staging.stage`, fenced on the lease, moving the base's
 *   `reembed_progress`), into `knowledge_staged_vectors` beside the serving vectors. A page is
 *   staged only for passages that still hold the text embedded.
 * - Passages written meanwhile (record writes, source indexing, documents) are embedded by the
 *   base's current embedder as usual; the job finds them without a staged vector and embeds them
 *   too, and the last transaction, under the base's row lock that every passage write takes,
 *   embeds any that came after its last page, moves the staged vectors into the vector index (the
 *   old ones removed, whatever either size), and stores the new spec. Writes after it see the new
 *   spec under the same lock.
 * - After a crash it runs again and goes on from the staged pages (they stay committed).
 * - The change replaced meanwhile (another embedder, or back to the current one) or the base
 *   deleted: the job ends without writing.
 * - A transient embedder failure after this attempt staged a page puts the job back (its attempts
 *   counted afresh): a long re-embedding that moves is not failed by a few 429s. Otherwise a
 *   failure that will not pass (an embedder error that is not transient, EMBEDDINGS_URL gone), or
 *   the last of 5 attempts, marks the base failed with the reason and drops the staged vectors;
 *   the old ones go on serving, and setting the embedder again tries again.
 */

export const REEMBED_JOB = 'knowledge.reembed';

/** Most passages embedded per transaction; an endpoint's batch size when smaller, so that each request's work commits. */
export const REEMBED_PAGE = 500;

interface ReembedPayload {
  knowledgeId: string;
  embedder: EmbedderSpec;
}

export function reembedJob(knowledgeId: string, embedder: EmbedderSpec): NewJob {
  return { kind: REEMBED_JOB, payload: { knowledgeId, embedder } satisfies ReembedPayload, maxAttempts: 5 };
}

/** How an embedder is named in messages. */
function named(spec: EmbedderSpec): string {
  return spec.kind === 'builtin' ? `the built-in embedder (${spec.model})` : `the model "${spec.model}"`;
}

/**
 * Sets a base's embedder (`base` claimed in `trx`): nothing when it has it already (a re-embedding
 * to another one is called off, a failed one forgotten); else a re-embedding job, unless one to
 * the same embedder is on its way.
 */
export async function changeEmbedder(ctx: ServiceContext, trx: Executor, base: repository.KnowledgeBase, spec: EmbedderSpec): Promise<void> {
  const store = passageStore(ctx.dialect);
  if (sameEmbedder(base.embedder, spec)) {
    if (base.nextEmbedder || base.reembedError) {
      await store.staging.discard(trx, base.id);
      await repository.updateBase(trx, base.id, { nextEmbedder: null, reembedProgress: 0, reembedTotal: 0, reembedError: null });
      await refreshBaseStatus(trx, base);
    }
    return;
  }
  if (sameEmbedder(base.nextEmbedder, spec)) return;
  await store.staging.discard(trx, base.id);
  const total = (await store.countByKnowledgeBase(trx, [base.id])).get(base.id) ?? 0;
  await repository.updateBase(trx, base.id, { nextEmbedder: spec, reembedProgress: 0, reembedTotal: total, reembedError: null });
  await enqueueJobs(trx, [reembedJob(base.id, spec)], ctx.now());
  onCommit(trx, announceJobs);
  await refreshBaseStatus(trx, base);
}

/** Embeds and stages unstaged passages of the base in `trx` until none is left (the last transaction's catch-up). */
async function stageRest(trx: Executor, store: PassageStore, embedder: Embedder, knowledgeId: string, page: number): Promise<void> {
  for (;;) {
    const rest = await store.staging.unstaged(trx, knowledgeId, 0, page);
    if (rest.length === 0) return;
    const vectors = await embedAll(
      embedder,
      rest.map((p) => p.content),
    );
    // Under the base's lock nothing changes the passages: each is staged, and the loop ends.
    if ((await store.staging.stage(trx, knowledgeId, rest.map((p, i) => ({ ...p, vector: vectors[i]! })))) === 0) return;
  }
}

export function reembedHandler(deps: IndexJobDeps): JobHandler {
  const { db } = deps;
  const payloadOf = (payload: unknown): ReembedPayload => payload as ReembedPayload;
  /** The base when it still waits for this job's embedder, locked for the rest of `trx`. */
  const claimed = async (trx: Executor, base: repository.KnowledgeBase, target: EmbedderSpec) => {
    const now = await repository.claimBase(trx, base.appId, base.id);
    return now && sameEmbedder(now.nextEmbedder, target) ? now : null;
  };
  return {
    kind: REEMBED_JOB,
    async run(job, lease) {
      const { knowledgeId, embedder: target } = payloadOf(job.payload);
      const base = await repository.baseById(db, knowledgeId);
      if (!base || !sameEmbedder(base.nextEmbedder, target)) return;
      const ctx = await indexingContext(deps, base);
      const store = passageStore(ctx.dialect);
      let staged = false;
      try {
        const embedder = embedderFor(target, { embeddings: ctx.embeddings ?? null });
        const page = Math.min(embedder.maxBatch, REEMBED_PAGE);
        // Pages in `seq` order; once at the end, once more from the start for passages written meanwhile.
        let after = 0;
        for (;;) {
          const todo = await store.staging.unstaged(db, knowledgeId, after, page);
          if (todo.length === 0) {
            if (after === 0) break;
            after = 0;
            continue;
          }
          const vectors = await embedAll(
            embedder,
            todo.map((p) => p.content),
          );
          const going = await inTransaction(db, async (trx) => {
            await lease.fence(trx);
            if (!(await claimed(trx, base, target))) return false;
            await store.staging.stage(trx, knowledgeId, todo.map((p, i) => ({ ...p, vector: vectors[i]! })));
            const total = (await store.countByKnowledgeBase(trx, [knowledgeId])).get(knowledgeId) ?? 0;
            await repository.updateBase(trx, knowledgeId, { reembedProgress: await store.staging.count(trx, knowledgeId), reembedTotal: total });
            return true;
          });
          if (!going) return;
          staged = true;
          after = todo[todo.length - 1]!.seq;
        }
        await inTransaction(db, async (trx) => {
          await lease.finish(trx);
          const now = await claimed(trx, base, target);
          if (!now) return;
          await stageRest(trx, store, embedder, knowledgeId, page);
          await store.staging.promote(trx, knowledgeId);
          await repository.updateBase(trx, knowledgeId, { embedder: target, nextEmbedder: null, reembedProgress: 0, reembedTotal: 0, reembedError: null, updatedAt: ctx.now() });
          await refreshBaseStatus(trx, now);
        });
      } catch (error) {
        if (cannotBeMended(error)) throw new PermanentJobFailure((error as Error).message);
        // A service that fails now and then (429s over a long re-embedding) should not use up the
        // attempts of a job that keeps moving: after a page staged, it waits and goes on afresh.
        if (staged && error instanceof EmbedderError) {
          ctx.log.warn({ err: error, knowledgeId }, 're-embedding paused by a transient embeddings failure; it goes on later');
          await lease.postpone(ctx.now() + (error.retryAfterMs ?? retryDelay(1)));
          return;
        }
        throw error;
      }
    },
    async giveUp(job, error) {
      const { knowledgeId, embedder: target } = payloadOf(job.payload);
      const base = await repository.baseById(db, knowledgeId);
      if (!base) return;
      const { dialect } = await indexingContext(deps, base);
      await inTransaction(db, async (trx) => {
        if (!(await claimed(trx, base, target))) return;
        await passageStore(dialect).staging.discard(trx, knowledgeId);
        const reason = `re-embedding with ${named(target)} failed; ${named(base.embedder)} still serves searches: ${error instanceof Error ? error.message : String(error)}`;
        await repository.updateBase(trx, knowledgeId, { nextEmbedder: null, reembedProgress: 0, reembedTotal: 0, reembedError: reason });
        await refreshBaseStatus(trx, base);
      });
    },
  };
}
