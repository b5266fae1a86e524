import type { RawBuilder } from 'kysely';
import type { Executor } from '../../db/connection.js';

/**
 * The two engine-specific halves of the passage store: a full-text index and a vector index, each
 * chosen from the dialect's `passageSearch` flags (`store/index.ts`). The passage rows themselves
 * are the same on every engine (`passage-rows.ts`).
 */

/** A passage as the indexes see it: its storage key, its base, its folded terms and its vector (null: no words). */
export interface IndexedPassage {
  seq: number;
  knowledgeId: string;
  terms: readonly string[];
  vector: Float32Array | null;
}

/** A candidate of one ranking: the passage's key and its score (larger is better). */
export interface Candidate {
  seq: number;
  score: number;
}

/** What an index keeps in the passage row itself (PostgreSQL's `terms` and `embedding` columns). */
export interface RowColumn {
  name: string;
  value(passage: Omit<IndexedPassage, 'seq'>): RawBuilder<unknown>;
}

export interface KeywordIndex {
  /** Columns of the passage row this index fills in (none for a separate index table). */
  readonly rowColumns: readonly RowColumn[];
  /** Indexes passages just inserted. */
  add(trx: Executor, passages: readonly IndexedPassage[]): Promise<void>;
  /** Forgets passages about to be deleted. */
  remove(trx: Executor, seqs: readonly number[]): Promise<void>;
  /** The best passages of these bases for the terms (any of them), best first; scores in [0, 1). */
  search(db: Executor, knowledgeIds: readonly string[], terms: readonly string[], limit: number): Promise<Candidate[]>;
}

export interface VectorIndex {
  readonly rowColumns: readonly RowColumn[];
  add(trx: Executor, passages: readonly IndexedPassage[]): Promise<void>;
  remove(trx: Executor, seqs: readonly number[]): Promise<void>;
  /** The passages of these bases nearest to `vector`, best first, with their cosine similarity. */
  search(db: Executor, knowledgeIds: readonly string[], vector: Float32Array, limit: number): Promise<Candidate[]>;
  /** The stored vectors of `dims` dimensions of these passages (those that exist), by `seq`. */
  vectorsOf(db: Executor, dims: number, seqs: readonly number[]): Promise<Map<number, Float32Array>>;
  /** A vector as `knowledge_staged_vectors.embedding` keeps it (the form `promote` reads). */
  stagedValue(vector: Float32Array): RawBuilder<unknown>;
  /**
   * Replaces the serving vectors of a base's passages (`seqs`, all of them) by its staged ones
   * (`staged-vectors.ts`), whatever their size: the end of a re-embedding, in its transaction.
   * Returns the vectors now stored (passages without words have none).
   */
  promote(trx: Executor, knowledgeId: string, seqs: readonly number[]): Promise<Array<{ seq: number; dims: number }>>;
}

/** Rows of `knowledgeIds` etc. are bound in chunks of this many, far under every engine's parameter limit. */
export const CHUNK = 500;

/** `items` in chunks of `size`. */
export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
