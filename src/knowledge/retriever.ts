import type { Executor } from '../db/connection.js';
import { fuseRankings, RRF_K } from './fusion.js';
import type { StoredPassage } from './passage.js';
import type { PassageStore } from './passage-store.js';
import type { RetrievalRequest, RetrievedPassage } from './retrieval.js';

/**
 * The ranking half of retrieval, whatever the engine and the caller: candidates from the full-text
 * and vector indexes, fused for hybrid search, kept only where the caller may read them, fetched
 * again deeper while too few are kept. `search-service.ts` (modules/knowledge) gives it the bases,
 * the query's vectors and the permission check.
 */

/** What one retrieval works on. */
export interface RetrievalPlan {
  db: Executor;
  store: PassageStore;
  knowledgeIds: readonly string[];
  /** The query embedded once per embedder, with the bases that use it. */
  vectors: ReadonlyArray<{ knowledgeIds: readonly string[]; vector: Float32Array }>;
  /** Of these passages, the `seq`s the caller may be shown (`RetrievalRequest` says which). */
  readable(passages: readonly StoredPassage[]): Promise<Set<number>>;
}

/** The first round fetches this many candidates per result from each ranking, each later round four times more. */
const OVERFETCH = 4;
const FIRST_FETCH = 20;
/** The deepest a round fetches (sqlite-vec answers at most 4096 neighbours). */
export const MAX_FETCH = 2000;

type Scored = { passage: StoredPassage; score: number };

/**
 * Hybrid scores: the reciprocal rank fusion of the two rankings, scaled so that a passage first in
 * both scores 1 (fusion alone gives at most 2 / 61).
 */
function fused(keyword: Scored[], vector: Scored[]): Scored[] {
  const bySeq = new Map<number, StoredPassage>();
  for (const c of [...keyword, ...vector]) bySeq.set(c.passage.seq, c.passage);
  const best = 2 / (RRF_K + 1);
  return fuseRankings([keyword.map((c) => c.passage.seq), vector.map((c) => c.passage.seq)]).map(({ key, score }) => ({ passage: bySeq.get(key)!, score: score / best }));
}

/** The vector candidates of every embedder group, nearest first. */
async function vectorCandidates(plan: RetrievalPlan, limit: number): Promise<{ found: Scored[]; full: boolean }> {
  const lists = await Promise.all(plan.vectors.map((group) => plan.store.vectorCandidates(plan.db, group.knowledgeIds, group.vector, limit)));
  return { found: lists.flat().sort((a, b) => b.score - a.score).slice(0, limit), full: lists.some((list) => list.length >= limit) };
}

/**
 * The best `topK` passages the caller may read, in rounds: each round fetches deeper while fewer
 * than `topK` readable passages (at or above `scoreThreshold`) were found and a ranking may hold
 * more. Permission answers are kept across rounds.
 * @example await rankPassages(plan, { knowledgeIds, query: 'refund', topK: 5, mode: 'hybrid' })
 */
export async function rankPassages(plan: RetrievalPlan, request: RetrievalRequest): Promise<RetrievedPassage[]> {
  const { mode, topK, scoreThreshold } = request;
  const allowed = new Map<number, boolean>();
  for (let fetch = Math.min(Math.max(FIRST_FETCH, topK * OVERFETCH), MAX_FETCH); ; fetch = Math.min(fetch * OVERFETCH, MAX_FETCH)) {
    const keyword = mode === 'vector' ? [] : await plan.store.keywordCandidates(plan.db, plan.knowledgeIds, request.query, fetch);
    const vector = mode === 'keyword' ? { found: [], full: false } : await vectorCandidates(plan, fetch);
    const ranked = mode === 'hybrid' ? fused(keyword, vector.found) : mode === 'vector' ? vector.found : keyword;
    const unknown = ranked.filter((c) => !allowed.has(c.passage.seq)).map((c) => c.passage);
    if (unknown.length > 0) {
      const readable = await plan.readable(unknown);
      for (const passage of unknown) allowed.set(passage.seq, readable.has(passage.seq));
    }
    const kept = ranked.filter((c) => allowed.get(c.passage.seq) === true && (scoreThreshold === undefined || c.score >= scoreThreshold));
    const mayHoldMore = keyword.length >= fetch || vector.full;
    // A single ranking is sorted by score: once its last candidate is under the threshold, deeper ones are too.
    const underThreshold = mode !== 'hybrid' && scoreThreshold !== undefined && ranked.length > 0 && ranked[ranked.length - 1]!.score < scoreThreshold;
    if (kept.length >= topK || !mayHoldMore || underThreshold || fetch >= MAX_FETCH) {
      return kept.slice(0, topK).map(({ passage, score }) => ({ content: passage.content, score, source: passage.source }));
    }
  }
}
