import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { LogEntry } from './log-entries.js';
import { insertRows } from '../repository.js';

/** The record log's SQL: entries written in the changes' transactions, read newest first. */

/**
 * Writes entries in as few statements as the engine's parameter limit allows, with statement texts
 * built once per size (`insertRows`): building a thousand-row insert anew cost more than writing it.
 */
export async function insertLogEntries(db: Executor, dialect: SqlDialect, entries: LogEntry[]): Promise<void> {
  await insertRows(db, dialect, 'record_logs', entries as unknown as Array<Record<string, unknown>>);
}

/** What a read of a record's log asks for. */
export interface LogQuery {
  worksheetId: string;
  rowId: string;
  operatorIds: string[];
  /** Epoch milliseconds, inclusive. */
  from: number | null;
  to: number | null;
  /** Entries older than this one (`seq`): the cursor of the previous page. */
  before: number | null;
}

export interface StoredLogEntry {
  seq: number;
  action: number;
  source: number;
  operator_id: string;
  created_at: number;
  changes: string;
}

function filtered(db: Executor, query: LogQuery) {
  let select = db.selectFrom('record_logs').where('worksheet_id', '=', query.worksheetId).where('row_id', '=', query.rowId);
  if (query.operatorIds.length > 0) select = select.where('operator_id', 'in', query.operatorIds);
  if (query.from !== null) select = select.where('created_at', '>=', query.from);
  if (query.to !== null) select = select.where('created_at', '<=', query.to);
  if (query.before !== null) select = select.where('seq', '<', query.before);
  return select;
}

/** A page of a record's entries, newest first; `limit` null reads them all (a field filter pages after reading). */
export async function listLogEntries(db: Executor, query: LogQuery, limit: number | null, offset: number): Promise<StoredLogEntry[]> {
  let select = filtered(db, query).select(['seq', 'action', 'source', 'operator_id', 'created_at', 'changes']).orderBy('seq', 'desc');
  if (limit !== null) select = select.limit(limit).offset(offset);
  const rows = await select.execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), created_at: Number(row.created_at) }));
}

export async function countLogEntries(db: Executor, query: LogQuery): Promise<number> {
  const row = await filtered(db, query).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes the entries of records removed for good. */
export async function deleteLogsOfRecords(db: Executor, worksheetId: string, rowIds: string[]): Promise<void> {
  for (let start = 0; start < rowIds.length; start += 500) {
    await db.deleteFrom('record_logs').where('worksheet_id', '=', worksheetId).where('row_id', 'in', rowIds.slice(start, start + 500)).execute();
  }
}
