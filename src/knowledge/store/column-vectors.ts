import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import { chunks, type Candidate, type VectorIndex } from './indexes.js';

/**
 * Vectors on PostgreSQL, in the `embedding` column of `knowledge_passages` (migration 0036):
 * - pgvector's `vector` where the extension was enabled: ranked by its cosine distance operator
 *   `<=>` (an exact scan in C);
 * - `real[]` otherwise: the dot product (vectors are unit length, so it is the cosine similarity)
 *   computed in SQL over every passage of the bases searched. Correct, and slow (about 2 s per
 *   20,000 passages on a busy two-core machine): docs/operations.md says how to enable pgvector.
 * Which one is read from the column's type, once per database.
 */

type ColumnKind = 'pgvector' | 'array';

const kinds = new WeakMap<object, Promise<ColumnKind>>();

/** The vector column's kind, read from the catalogue (standard `information_schema`) and kept. */
function columnKind(db: Executor, key: object): Promise<ColumnKind> {
  let kind = kinds.get(key);
  if (!kind) {
    kind = sql<{ udt_name: string }>`
      SELECT udt_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'knowledge_passages' AND column_name = 'embedding'`
      .execute(db)
      .then((found) => (found.rows[0]?.udt_name === 'vector' ? 'pgvector' : 'array'));
    kind.catch(() => kinds.delete(key));
    kinds.set(key, kind);
  }
  return kind;
}

/** pgvector's text form of a vector: `[0.1,0.2,…]`. */
function vectorText(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

/** A stored vector as the driver gives it: `real[]` as numbers, pgvector's as its text form. */
function parsed(value: number[] | string): Float32Array {
  return Float32Array.from(typeof value === 'string' ? (JSON.parse(value) as number[]) : value);
}

/** The condition "the vector has `dims` dimensions", for the column's kind. */
function ofSize(kind: ColumnKind, dims: number) {
  return kind === 'pgvector' ? sql`vector_dims(embedding) = ${dims}` : sql`cardinality(embedding) = ${dims}`;
}

/**
 * The column vector index of one database (`key`: what identifies it, the dialect). Both kinds
 * take the same input: pgvector casts `real[]` to `vector` on assignment.
 */
export function columnVectors(key: object): VectorIndex {
  return {
    rowColumns: [{ name: 'embedding', value: (passage) => (passage.vector ? sql`CAST(${Array.from(passage.vector)} AS real[])` : sql`NULL`) }],
    add: async () => undefined,
    remove: async () => undefined,
    async search(db, knowledgeIds: readonly string[], vector: Float32Array, limit: number): Promise<Candidate[]> {
      if (knowledgeIds.length === 0) return [];
      const kind = await columnKind(db, key);
      // Vectors of another size (a base with another embedder) are left out: their distance is undefined.
      const found =
        kind === 'pgvector'
          ? await sql<{ seq: string | number; score: number }>`
              SELECT seq, 1 - (embedding <=> CAST(${vectorText(vector)} AS vector)) AS score FROM knowledge_passages
              WHERE knowledge_id IN (${sql.join(knowledgeIds)}) AND vector_dims(embedding) = ${vector.length}
              ORDER BY embedding <=> CAST(${vectorText(vector)} AS vector), seq LIMIT ${limit}`.execute(db)
          : await sql<{ seq: string | number; score: number }>`
              SELECT seq, score FROM (
                SELECT p.seq, (SELECT sum(a * b) FROM unnest(p.embedding, CAST(${Array.from(vector)} AS real[])) AS pair(a, b)) AS score
                FROM knowledge_passages p
                WHERE p.knowledge_id IN (${sql.join(knowledgeIds)}) AND cardinality(p.embedding) = ${vector.length}
              ) AS scored ORDER BY score DESC, seq LIMIT ${limit}`.execute(db);
      return found.rows.map((row) => ({ seq: Number(row.seq), score: Number(row.score) }));
    },
    async vectorsOf(db, dims, seqs) {
      const found = new Map<number, Float32Array>();
      const kind = await columnKind(db, key);
      for (const part of chunks(seqs)) {
        const rows = await sql<{ seq: string | number; embedding: number[] | string }>`
          SELECT seq, embedding FROM knowledge_passages WHERE seq IN (${sql.join(part)}) AND ${ofSize(kind, dims)}`.execute(db);
        for (const row of rows.rows) found.set(Number(row.seq), parsed(row.embedding));
      }
      return found;
    },
    stagedValue: (vector) => sql`CAST(${Array.from(vector)} AS real[])`,
    async promote(trx, knowledgeId) {
      // pgvector casts real[] to vector on assignment, as on insert. A passage without a staged vector has none.
      await sql`
        UPDATE knowledge_passages AS p SET embedding = s.embedding FROM knowledge_staged_vectors s
        WHERE s.seq = p.seq AND p.knowledge_id = ${knowledgeId}`.execute(trx);
      await sql`
        UPDATE knowledge_passages AS p SET embedding = NULL
        WHERE p.knowledge_id = ${knowledgeId} AND NOT EXISTS (SELECT 1 FROM knowledge_staged_vectors s WHERE s.seq = p.seq)`.execute(trx);
      const stored = await sql<{ seq: number | string; dims: number }>`
        SELECT seq, cardinality(embedding) AS dims FROM knowledge_staged_vectors WHERE knowledge_id = ${knowledgeId} AND embedding IS NOT NULL`.execute(trx);
      return stored.rows.map((row) => ({ seq: Number(row.seq), dims: Number(row.dims) }));
    },
  };
}
