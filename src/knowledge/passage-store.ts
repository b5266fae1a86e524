import type { Executor } from '../db/connection.js';
import type { PassageInput, PassageOwner, StoredPassage } from './passage.js';

/**
 * Where passages, their full-text index and their vectors live. One implementation per engine
 * capability, chosen from the dialect (`SqlDialect.passageSearch`), never by the engine's name:
 * - full text: FTS5 on SQLite (an external-content table over `knowledge_passages`, bm25 rank),
 *   `tsvector` with a GIN index on PostgreSQL (`ts_rank_cd`), both over the same folded text so
 *   that the same words match on both engines;
 * - vectors: sqlite-vec's `vec0` on SQLite (one table per vector size, the knowledge base as its
 *   partition key); pgvector on PostgreSQL when the extension is installed, otherwise an exact scan
 *   of `real[]` in SQL (correct, slower; docs/knowledge.md says how to enable pgvector).
 * Writes take the caller's transaction, so that a record write and the re-indexing job it queues,
 * or an ingestion job and its progress, commit together.
 */
export interface PassageStore {
  /**
   * Replaces every passage of `owner` (or of each of several owners, in one go: a page of records
   * is re-indexed with a few statements, not a few per record) by `passages` (none: removes them).
   */
  replace(trx: Executor, owner: PassageOwner | readonly PassageOwner[], passages: readonly PassageInput[]): Promise<void>;
  /** Adds passages beside the kept ones: a document's pages, written one transaction at a time. */
  add(trx: Executor, passages: readonly PassageInput[]): Promise<void>;
  /** Removes every passage of a knowledge base, or of one of its sources. */
  removeAll(trx: Executor, knowledgeId: string, sourceId?: string): Promise<void>;
  /**
   * The best passages for the words of `query`, best first, at most `limit`: full-text rank, each
   * with its rank score in [0, 1) (larger is better). Words are matched as whole words after
   * folding case and diacritics (`search-terms.ts`); any word of the query may match.
   */
  keywordCandidates(db: Executor, knowledgeIds: readonly string[], query: string, limit: number): Promise<Array<{ passage: StoredPassage; score: number }>>;
  /** The passages nearest to `vector`, best first, at most `limit`, each with its cosine similarity. */
  vectorCandidates(db: Executor, knowledgeIds: readonly string[], vector: Float32Array, limit: number): Promise<Array<{ passage: StoredPassage; score: number }>>;
  /** How many passages each of `knowledgeIds` holds. */
  countByKnowledgeBase(db: Executor, knowledgeIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Re-embedding (`modules/knowledge/reembed-job.ts`): a base's vectors of its next embedder are
   * staged beside the serving ones, which searches keep using, and replace them in one go.
   */
  staging: {
    /** The base's passages without a staged vector, by `seq` after `afterSeq`, at most `limit`: what to embed next. */
    unstaged(db: Executor, knowledgeId: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; content: string }>>;
    /** Stages new vectors of passages that still hold the text embedded; returns how many. */
    stage(trx: Executor, knowledgeId: string, vectors: ReadonlyArray<{ seq: number; content: string; vector: Float32Array }>): Promise<number>;
    /** How many of the base's passages have a staged vector. */
    count(db: Executor, knowledgeId: string): Promise<number>;
    /** The staged vectors become the serving ones (the old ones are removed), and are no longer staged. */
    promote(trx: Executor, knowledgeId: string): Promise<void>;
    /** Drops the base's staged vectors. */
    discard(trx: Executor, knowledgeId: string): Promise<void>;
  };
}
