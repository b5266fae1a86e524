import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';
import type { PassageInput, PassageOwner, PassageSource, StoredPassage } from '../passage.js';
import { chunks, type RowColumn } from './indexes.js';

/**
 * The rows of `knowledge_passages`, alike on every engine: inserted with the columns the indexes
 * keep in them (`RowColumn`), found by owner, read back by `seq`, deleted. A document's passages
 * have the document as `source_id` and no `row_id`.
 */

/** A passage row as `readPassages` selects it: the table's columns, with its source's worksheet joined in. */
type PassageRow = Selectable<MetaSchema['knowledge_passages']> & { worksheet_id: string | null };

function sourceColumns(source: PassageSource) {
  return source.type === 'record'
    ? { sourceId: source.sourceId, rowId: source.rowId, fieldIds: JSON.stringify(source.fieldIds) }
    : { sourceId: source.documentId, rowId: null, fieldIds: null };
}

/** What identifies a passage among those of one insert: its base, source, record and chunk. */
function keyOf(knowledgeId: string, sourceId: string, rowId: string | null, chunkIndex: number): string {
  return `${knowledgeId}\u0000${sourceId}\u0000${rowId ?? ''}\u0000${chunkIndex}`;
}

/**
 * Inserts passages with the indexes' row columns, and returns their `seq`s in order. The engine
 * assigns them; RETURNING's order is not promised, so rows are matched back by their key.
 * @example const seqs = await insertPassageRows(trx, [{ input, columns: [] }], [])
 */
export async function insertPassageRows(trx: Executor, passages: ReadonlyArray<{ input: PassageInput; columnValues: ReturnType<RowColumn['value']>[] }>, columns: readonly RowColumn[]): Promise<number[]> {
  const seqs = new Map<string, number>();
  const extra = columns.map((column) => sql`, ${sql.ref(column.name)}`);
  for (const part of chunks(passages, 200)) {
    const rows = part.map(({ input, columnValues }) => {
      const { sourceId, rowId, fieldIds } = sourceColumns(input.source);
      const values = [input.source.knowledgeId, sourceId, input.source.type, rowId, fieldIds, input.source.chunkIndex, input.source.title, input.content].map((value) => sql`${value}`);
      return sql`(${sql.join([...values, ...columnValues])})`;
    });
    const inserted = await sql<{ seq: number | string; knowledge_id: string; source_id: string; row_id: string | null; chunk_index: number }>`
      INSERT INTO knowledge_passages (knowledge_id, source_id, source_type, row_id, field_ids, chunk_index, title, content${sql.join(extra, sql``)})
      VALUES ${sql.join(rows)} RETURNING seq, knowledge_id, source_id, row_id, chunk_index`.execute(trx);
    for (const row of inserted.rows) seqs.set(keyOf(row.knowledge_id, row.source_id, row.row_id, Number(row.chunk_index)), Number(row.seq));
  }
  return passages.map(({ input }) => {
    const { sourceId, rowId } = sourceColumns(input.source);
    return seqs.get(keyOf(input.source.knowledgeId, sourceId, rowId, input.source.chunkIndex))!;
  });
}

/** The `seq`s of the passages of these owners. */
export async function seqsOfOwners(db: Executor, owners: readonly PassageOwner[]): Promise<number[]> {
  const found: number[] = [];
  const records = new Map<string, { knowledgeId: string; sourceId: string; rowIds: string[] }>();
  for (const owner of owners) {
    if ('documentId' in owner) {
      const rows = await sql<{ seq: number | string }>`SELECT seq FROM knowledge_passages WHERE knowledge_id = ${owner.knowledgeId} AND source_id = ${owner.documentId}`.execute(db);
      found.push(...rows.rows.map((row) => Number(row.seq)));
      continue;
    }
    const key = `${owner.knowledgeId}\u0000${owner.sourceId}`;
    const group = records.get(key) ?? { knowledgeId: owner.knowledgeId, sourceId: owner.sourceId, rowIds: [] };
    group.rowIds.push(owner.rowId);
    records.set(key, group);
  }
  for (const group of records.values()) {
    for (const part of chunks(group.rowIds)) {
      const rows = await sql<{ seq: number | string }>`
        SELECT seq FROM knowledge_passages WHERE knowledge_id = ${group.knowledgeId} AND source_id = ${group.sourceId} AND row_id IN (${sql.join(part)})`.execute(db);
      found.push(...rows.rows.map((row) => Number(row.seq)));
    }
  }
  return found;
}

/** The `seq`s of every passage of a base, or of one of its sources. */
export async function seqsOfBase(db: Executor, knowledgeId: string, sourceId?: string): Promise<number[]> {
  const rows = await sql<{ seq: number | string }>`
    SELECT seq FROM knowledge_passages WHERE knowledge_id = ${knowledgeId}${sourceId === undefined ? sql`` : sql` AND source_id = ${sourceId}`}`.execute(db);
  return rows.rows.map((row) => Number(row.seq));
}

export async function deletePassageRows(trx: Executor, seqs: readonly number[]): Promise<void> {
  for (const part of chunks(seqs)) await sql`DELETE FROM knowledge_passages WHERE seq IN (${sql.join(part)})`.execute(trx);
}

function storedPassage(row: PassageRow): StoredPassage {
  const common = { knowledgeId: row.knowledge_id, sourceId: row.source_id, title: row.title, chunkIndex: Number(row.chunk_index) };
  const source: PassageSource =
    row.source_type === 'record'
      ? { type: 'record', ...common, worksheetId: row.worksheet_id ?? '', rowId: row.row_id ?? '', fieldIds: JSON.parse(row.field_ids ?? '[]') as string[] }
      : { type: 'document', ...common, documentId: row.source_id };
  return { seq: Number(row.seq), source, content: row.content };
}

/** The passages with these `seq`s (those that still exist), by `seq`. */
export async function readPassages(db: Executor, seqs: readonly number[]): Promise<Map<number, StoredPassage>> {
  const found = new Map<number, StoredPassage>();
  for (const part of chunks([...new Set(seqs)])) {
    const rows = await sql<PassageRow>`
      SELECT p.seq, p.knowledge_id, p.source_id, p.source_type, p.row_id, p.field_ids, p.chunk_index, p.title, p.content, s.worksheet_id
      FROM knowledge_passages p LEFT JOIN knowledge_sources s ON s.id = p.source_id
      WHERE p.seq IN (${sql.join(part)})`.execute(db);
    for (const row of rows.rows) found.set(Number(row.seq), storedPassage(row));
  }
  return found;
}

/** How many passages each base holds (bases without any are absent). */
export async function countPassages(db: Executor, knowledgeIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const part of chunks(knowledgeIds)) {
    const rows = await sql<{ knowledge_id: string; n: number | string }>`
      SELECT knowledge_id, COUNT(*) AS n FROM knowledge_passages WHERE knowledge_id IN (${sql.join(part)}) GROUP BY knowledge_id`.execute(db);
    for (const row of rows.rows) counts.set(row.knowledge_id, Number(row.n));
  }
  return counts;
}
