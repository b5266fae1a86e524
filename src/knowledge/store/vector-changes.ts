import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { PassageSearch } from '../../db/dialect/sql-dialect.js';
import { chunks } from './indexes.js';

/**
 * The log of passage vectors stored and removed (`knowledge_vector_changes`, migration 0038), which
 * every process's in-memory vector index reads to catch up with writes made anywhere. Appended in
 * the writing transaction, so it holds exactly what committed, in commit order.
 */

/** A vector stored (`knowledgeId` and `dims` set) or removed (both null). */
export interface VectorChange {
  id: number;
  seq: number;
  knowledgeId: string | null;
  dims: number | null;
}

/** How long changes are kept: a process whose index is older than half of it reloads instead. */
export const VECTOR_CHANGES_KEPT_MS = 60 * 60_000;

/**
 * Appends stored vectors and removals to the log, in the caller's transaction.
 * @example await appendVectorChanges(trx, search, [{ seq: 7, knowledgeId, dims: 256 }], [], Date.now())
 */
export async function appendVectorChanges(
  trx: Executor,
  search: PassageSearch,
  stored: ReadonlyArray<{ seq: number; knowledgeId: string; dims: number }>,
  removed: readonly number[],
  now: number,
): Promise<void> {
  if (stored.length === 0 && removed.length === 0) return;
  if (search.serialChangesSql) await sql.raw(search.serialChangesSql).execute(trx);
  const rows = [...removed.map((seq) => ({ seq, knowledgeId: null, dims: null })), ...stored];
  for (const part of chunks(rows, 1000)) {
    await sql`INSERT INTO knowledge_vector_changes (seq, knowledge_id, dims, created_at)
      VALUES ${sql.join(part.map((row) => sql`(${row.seq}, ${row.knowledgeId}, ${row.dims}, ${now})`))}`.execute(trx);
  }
}

/** The changes after `afterId`, oldest first, at most `limit`. */
export async function vectorChangesAfter(db: Executor, afterId: number, limit: number): Promise<VectorChange[]> {
  const rows = await sql<{ id: number | string; seq: number | string; knowledge_id: string | null; dims: number | null }>`
    SELECT id, seq, knowledge_id, dims FROM knowledge_vector_changes WHERE id > ${afterId} ORDER BY id LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => ({ id: Number(row.id), seq: Number(row.seq), knowledgeId: row.knowledge_id, dims: row.dims === null ? null : Number(row.dims) }));
}

/** The id of the latest change (0: none yet). */
export async function latestVectorChange(db: Executor): Promise<number> {
  const rows = await sql<{ id: number | string | null }>`SELECT MAX(id) AS id FROM knowledge_vector_changes`.execute(db);
  return Number(rows.rows[0]?.id ?? 0);
}

/**
 * Removes changes older than `VECTOR_CHANGES_KEPT_MS` (the maintenance sweep).
 * @example const { vectorChanges } = await sweepVectorChanges(db, Date.now())
 */
export async function sweepVectorChanges(db: Executor, now: number): Promise<{ vectorChanges: number }> {
  const result = await sql`DELETE FROM knowledge_vector_changes WHERE created_at < ${now - VECTOR_CHANGES_KEPT_MS}`.execute(db);
  return { vectorChanges: Number(result.numAffectedRows ?? 0) };
}
