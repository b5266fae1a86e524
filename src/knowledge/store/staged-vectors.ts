import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import { chunks, type VectorIndex } from './indexes.js';
import { encodeVector } from './quantized-vectors.js';

/**
 * A re-embedding's new vectors (`knowledge_staged_vectors`, migration 0039): staged one page at a
 * time beside the serving vectors, which searches keep using, then moved into the vector index in
 * one transaction (`VectorIndex.promote`). A passage removed meanwhile takes its staged vector with
 * it (`forgetStaged`), so that a staged vector always belongs to a live passage: on SQLite a `seq`
 * may be given again to a new passage once the largest one is deleted.
 */

/** A new vector for a passage, with the text it was embedded from (null vector: no words). */
export interface StagedVector {
  seq: number;
  content: string;
  vector: Float32Array | null;
}

/** Passages of a base without a staged vector, in `seq` order after `afterSeq`, at most `limit`. */
export async function unstagedPassages(db: Executor, knowledgeId: string, afterSeq: number, limit: number): Promise<Array<{ seq: number; content: string }>> {
  const rows = await sql<{ seq: number | string; content: string }>`
    SELECT p.seq, p.content FROM knowledge_passages p
    WHERE p.knowledge_id = ${knowledgeId} AND p.seq > ${afterSeq}
      AND NOT EXISTS (SELECT 1 FROM knowledge_staged_vectors s WHERE s.seq = p.seq)
    ORDER BY p.seq LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => ({ seq: Number(row.seq), content: row.content }));
}

/**
 * Stages the vectors whose passage still exists in the base with the same text (it may have been
 * replaced while the page was being embedded); returns how many were staged.
 */
export async function stageVectors(trx: Executor, vectors: VectorIndex, knowledgeId: string, staged: readonly StagedVector[]): Promise<number> {
  let count = 0;
  for (const part of chunks(staged, 200)) {
    const live = await sql<{ seq: number | string; content: string }>`
      SELECT seq, content FROM knowledge_passages WHERE knowledge_id = ${knowledgeId} AND seq IN (${sql.join(part.map((s) => s.seq))})`.execute(trx);
    const current = new Map(live.rows.map((row) => [Number(row.seq), row.content]));
    const kept = part.filter((s) => current.get(s.seq) === s.content);
    if (kept.length === 0) continue;
    const rows = kept.map((s) => sql`(${s.seq}, ${knowledgeId}, ${s.vector ? vectors.stagedValue(s.vector) : sql`NULL`}, ${s.vector ? encodeVector(s.vector) : null})`);
    await sql`
      INSERT INTO knowledge_staged_vectors (seq, knowledge_id, embedding, vector_codes) VALUES ${sql.join(rows)}
      ON CONFLICT (seq) DO UPDATE SET knowledge_id = excluded.knowledge_id, embedding = excluded.embedding, vector_codes = excluded.vector_codes`.execute(trx);
    count += kept.length;
  }
  return count;
}

/** How many of a base's passages have a staged vector. */
export async function stagedCount(db: Executor, knowledgeId: string): Promise<number> {
  const row = (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM knowledge_staged_vectors WHERE knowledge_id = ${knowledgeId}`.execute(db)).rows[0];
  return Number(row?.n ?? 0);
}

/** Drops a base's staged vectors (its re-embedding ended, failed or was replaced). */
export async function discardStaged(trx: Executor, knowledgeId: string): Promise<void> {
  await sql`DELETE FROM knowledge_staged_vectors WHERE knowledge_id = ${knowledgeId}`.execute(trx);
}

/** Drops the staged vectors of passages about to be removed. */
export async function forgetStaged(trx: Executor, seqs: readonly number[]): Promise<void> {
  for (const part of chunks(seqs)) await sql`DELETE FROM knowledge_staged_vectors WHERE seq IN (${sql.join(part)})`.execute(trx);
}
