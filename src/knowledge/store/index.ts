import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { PassageInput, PassageOwner, StoredPassage } from '../passage.js';
import type { PassageStore } from '../passage-store.js';
import { queryTerms, searchTerms } from '../search-terms.js';
import { cachedVectors } from './cached-vectors.js';
import { columnVectors } from './column-vectors.js';
import { fts5Keywords } from './fts5-keywords.js';
import type { Candidate, IndexedPassage, KeywordIndex, VectorIndex } from './indexes.js';
import { countPassages, deletePassageRows, insertPassageRows, readPassages, seqsOfBase, seqsOfOwners } from './passage-rows.js';
import { discardStaged, forgetStaged, stagedCount, stageVectors, unstagedPassages } from './staged-vectors.js';
import { tsvectorKeywords } from './tsvector-keywords.js';
import { vec0Vectors } from './vec0-vectors.js';

/** A vector that is all zeros (a text without words) has no direction: it is not stored. */
function directed(vector: Float32Array): Float32Array | null {
  for (const x of vector) if (x !== 0) return vector;
  return null;
}

/** Candidates with their passages, in the candidates' order; passages of other bases (or gone since) are left out. */
async function withPassages(db: Executor, knowledgeIds: readonly string[], candidates: Candidate[]): Promise<Array<{ passage: StoredPassage; score: number }>> {
  const passages = await readPassages(
    db,
    candidates.map((c) => c.seq),
  );
  const bases = new Set(knowledgeIds);
  return candidates.flatMap(({ seq, score }) => {
    const passage = passages.get(seq);
    return passage && bases.has(passage.source.knowledgeId) ? [{ passage, score }] : [];
  });
}

function composeStore(keywords: KeywordIndex, vectors: VectorIndex): PassageStore {
  const columns = [...keywords.rowColumns, ...vectors.rowColumns];
  async function remove(trx: Executor, seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    await keywords.remove(trx, seqs);
    await vectors.remove(trx, seqs);
    await forgetStaged(trx, seqs);
    await deletePassageRows(trx, seqs);
  }
  async function add(trx: Executor, passages: readonly PassageInput[]): Promise<void> {
    if (passages.length === 0) return;
    const prepared = passages.map((input: PassageInput) => {
      const indexed = { knowledgeId: input.source.knowledgeId, terms: searchTerms(input.keywordText ?? input.content), vector: directed(input.vector) };
      return { input, indexed, columnValues: columns.map((column) => column.value(indexed)) };
    });
    const seqs = await insertPassageRows(trx, prepared, columns);
    const indexed: IndexedPassage[] = prepared.map((p, i) => ({ ...p.indexed, seq: seqs[i]! }));
    await keywords.add(trx, indexed);
    await vectors.add(trx, indexed);
  }
  return {
    async replace(trx, owner, passages) {
      await remove(trx, await seqsOfOwners(trx, Array.isArray(owner) ? (owner as readonly PassageOwner[]) : [owner as PassageOwner]));
      await add(trx, passages);
    },
    add,
    async removeAll(trx, knowledgeId, sourceId) {
      await remove(trx, await seqsOfBase(trx, knowledgeId, sourceId));
    },
    async keywordCandidates(db, knowledgeIds, query, limit) {
      return withPassages(db, knowledgeIds, await keywords.search(db, knowledgeIds, queryTerms(query), limit));
    },
    async vectorCandidates(db, knowledgeIds, vector, limit) {
      if (!directed(vector)) return [];
      return withPassages(db, knowledgeIds, await vectors.search(db, knowledgeIds, vector, limit));
    },
    countByKnowledgeBase: countPassages,
    staging: {
      unstaged: unstagedPassages,
      stage: (trx, knowledgeId, staged) => stageVectors(trx, vectors, knowledgeId, staged.map((s) => ({ ...s, vector: directed(s.vector) }))),
      count: stagedCount,
      async promote(trx, knowledgeId) {
        await vectors.promote(trx, knowledgeId, await seqsOfBase(trx, knowledgeId));
        await discardStaged(trx, knowledgeId);
      },
      discard: discardStaged,
    },
  };
}

const stores = new WeakMap<SqlDialect, PassageStore>();
const cacheBudgets = new WeakMap<SqlDialect, number>();

/** The in-memory vector index's budget when none was set (KNOWLEDGE_VECTOR_CACHE_MB's default). */
export const DEFAULT_VECTOR_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Sets the memory budget of the in-memory vector index of an engine's passage store (0: off), before
 * its first use (`app.ts`, from KNOWLEDGE_VECTOR_CACHE_MB).
 * @example setVectorCacheBudget(database.dialect, config.knowledgeVectorCacheBytes)
 */
export function setVectorCacheBudget(dialect: SqlDialect, bytes: number): void {
  cacheBudgets.set(dialect, bytes);
}

/**
 * The passage store of an engine, from its `passageSearch` capabilities (one per dialect).
 * @example await passageStore(ctx.dialect).replace(trx, owner, passages)
 */
export function passageStore(dialect: SqlDialect): PassageStore {
  let store = stores.get(dialect);
  if (!store) {
    const search = dialect.passageSearch;
    const vectors = search.vectors === 'vec0' ? vec0Vectors(search) : columnVectors(dialect);
    store = composeStore(search.fullText === 'fts5' ? fts5Keywords : tsvectorKeywords, cachedVectors(vectors, search, { budgetBytes: cacheBudgets.get(dialect) ?? DEFAULT_VECTOR_CACHE_BYTES }));
    stores.set(dialect, store);
  }
  return store;
}
