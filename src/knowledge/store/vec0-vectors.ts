import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { PassageSearch } from '../../db/dialect/sql-dialect.js';
import { chunks, type Candidate, type IndexedPassage, type VectorIndex } from './indexes.js';

/**
 * Vectors on SQLite: sqlite-vec's `vec0` virtual tables, one per vector size
 * (`knowledge_vectors_256` for the built-in embedder), made when a size is first stored, with the
 * knowledge base as partition key so that a search scans only its bases. The rowid is the
 * passage's `seq`. Vectors are unit length, so the default L2 distance ranks as cosine does
 * (similarity = 1 − d²/2) and costs less to compute. Passages without words have no vector row.
 */

/** sqlite-vec answers at most this many neighbours per query. */
const MAX_K = 4096;
const TABLE = /^knowledge_vectors_(\d+)$/;

function tableOf(size: number): string {
  return `knowledge_vectors_${size}`;
}

function blob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A stored vector's bytes as floats (copied: the driver's buffer may be reused). */
function floats(bytes: Uint8Array): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** The vector sizes that have a table now (a read of the schema: cheap, and right after a rolled-back creation too). */
async function storedSizes(db: Executor): Promise<number[]> {
  const found = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'knowledge_vectors_%'`.execute(db);
  return found.rows.flatMap((row) => {
    const match = TABLE.exec(row.name);
    return match ? [Number(match[1])] : [];
  });
}

export function vec0Vectors(search: PassageSearch): VectorIndex {
  async function remove(trx: Executor, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    search.loadVectorExtension();
    // One statement per rowid: vec0 finds `rowid = ?` directly but scans the table for `rowid IN (…)`.
    for (const size of await storedSizes(trx)) {
      for (const seq of seqs) await sql`DELETE FROM ${sql.table(tableOf(size))} WHERE rowid = ${seq}`.execute(trx);
    }
  }
  return {
    rowColumns: [],
    async add(trx, passages: readonly IndexedPassage[]) {
      const withVectors = passages.filter((p) => p.vector !== null);
      if (withVectors.length === 0) return;
      search.loadVectorExtension();
      const sizes = new Set(await storedSizes(trx));
      const bySize = new Map<number, IndexedPassage[]>();
      for (const p of withVectors) bySize.set(p.vector!.length, [...(bySize.get(p.vector!.length) ?? []), p]);
      for (const [size, group] of bySize) {
        const table = sql.table(tableOf(size));
        if (!sizes.has(size)) await sql`CREATE VIRTUAL TABLE ${table} USING vec0(knowledge_id text partition key, embedding float[${sql.lit(size)}])`.execute(trx);
        for (const part of chunks(group, 200)) {
          // vec0 takes only integer rowids; a JavaScript number is bound as a real unless cast.
          const rows = part.map((p) => sql`(CAST(${p.seq} AS INTEGER), ${p.knowledgeId}, ${blob(p.vector!)})`);
          await sql`INSERT INTO ${table} (rowid, knowledge_id, embedding) VALUES ${sql.join(rows)}`.execute(trx);
        }
      }
    },
    remove,
    async search(db, knowledgeIds: readonly string[], vector: Float32Array, limit: number): Promise<Candidate[]> {
      if (knowledgeIds.length === 0 || !(await storedSizes(db)).includes(vector.length)) return [];
      search.loadVectorExtension();
      const found: Candidate[] = [];
      for (const part of chunks(knowledgeIds)) {
        const rows = await sql<{ seq: number; distance: number }>`
          SELECT rowid AS seq, distance FROM ${sql.table(tableOf(vector.length))}
          WHERE embedding MATCH ${blob(vector)} AND k = ${Math.min(limit, MAX_K)} AND knowledge_id IN (${sql.join(part)})`.execute(db);
        for (const row of rows.rows) found.push({ seq: Number(row.seq), score: 1 - (row.distance * row.distance) / 2 });
      }
      return found.sort((a, b) => b.score - a.score).slice(0, limit);
    },
    async vectorsOf(db, dims, seqs) {
      const found = new Map<number, Float32Array>();
      if (seqs.length === 0 || !(await storedSizes(db)).includes(dims)) return found;
      search.loadVectorExtension();
      // One statement per rowid, as in `remove`: a direct lookup each.
      for (const seq of seqs) {
        const rows = await sql<{ embedding: Uint8Array }>`SELECT embedding FROM ${sql.table(tableOf(dims))} WHERE rowid = ${seq}`.execute(db);
        if (rows.rows[0]) found.set(seq, floats(rows.rows[0].embedding));
      }
      return found;
    },
    stagedValue: (vector) => sql`${blob(vector)}`,
    async promote(trx, knowledgeId, seqs) {
      search.loadVectorExtension();
      // The old vectors go first: with the same size, the new ones take the same rowids in the same table.
      await remove(trx, seqs);
      const staged = await sql<{ size: number }>`
        SELECT DISTINCT length(embedding) / 4 AS size FROM knowledge_staged_vectors WHERE knowledge_id = ${knowledgeId} AND embedding IS NOT NULL`.execute(trx);
      const sizes = new Set(await storedSizes(trx));
      for (const { size } of staged.rows) {
        const table = sql.table(tableOf(Number(size)));
        if (!sizes.has(Number(size))) await sql`CREATE VIRTUAL TABLE ${table} USING vec0(knowledge_id text partition key, embedding float[${sql.lit(Number(size))}])`.execute(trx);
        await sql`
          INSERT INTO ${table} (rowid, knowledge_id, embedding)
          SELECT seq, knowledge_id, embedding FROM knowledge_staged_vectors
          WHERE knowledge_id = ${knowledgeId} AND embedding IS NOT NULL AND length(embedding) = ${Number(size) * 4}`.execute(trx);
      }
      const stored = await sql<{ seq: number; dims: number }>`
        SELECT seq, length(embedding) / 4 AS dims FROM knowledge_staged_vectors WHERE knowledge_id = ${knowledgeId} AND embedding IS NOT NULL`.execute(trx);
      return stored.rows.map((row) => ({ seq: Number(row.seq), dims: Number(row.dims) }));
    },
  };
}

/** The most neighbours one vector search can return on this index. */
export const VEC0_MAX_K = MAX_K;
