import { sql, type Kysely } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';

/**
 * SQL over worksheet row tables. Tables and columns are named at run time (one table per
 * worksheet, one column per field id), so this module talks to an untyped view of Kysely.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RowDb = Kysely<any>;

function rows(db: Executor): RowDb {
  return db as unknown as RowDb;
}

export interface SortTerm {
  column: string;
  ascending: boolean;
}

/** Inserts rows in as few statements as the engine's parameter limit allows. */
export async function insertRows(db: Executor, dialect: SqlDialect, table: string, records: Array<Record<string, unknown>>): Promise<void> {
  if (records.length === 0) return;
  const columns = Object.keys(records[0]).length;
  const perStatement = Math.max(1, Math.floor(dialect.maxParameters / columns));
  for (let start = 0; start < records.length; start += perStatement) {
    await rows(db).insertInto(table).values(records.slice(start, start + perStatement)).execute();
  }
}

export async function findRow(db: Executor, table: string, id: string, columns: string[] | null): Promise<Record<string, unknown> | undefined> {
  const query = rows(db).selectFrom(table).where('id', '=', id).where('_deleted_at', 'is', null);
  return (columns ? query.select(columns) : query.selectAll()).executeTakeFirst();
}

/** Updates live rows; returns the ids that were updated. */
export async function updateRows(db: Executor, table: string, ids: string[], changes: Record<string, unknown>): Promise<string[]> {
  const updated = await rows(db)
    .updateTable(table)
    .set(changes)
    .where('id', 'in', ids)
    .where('_deleted_at', 'is', null)
    .returning('id')
    .execute();
  return updated.map((r) => r.id as string);
}

/** Moves live rows to the recycle bin; returns the ids that were live. */
export async function softDeleteRows(db: Executor, table: string, ids: string[], at: number): Promise<string[]> {
  const deleted = await rows(db)
    .updateTable(table)
    .set({ _deleted_at: at })
    .where('id', 'in', ids)
    .where('_deleted_at', 'is', null)
    .returning('id')
    .execute();
  return deleted.map((r) => r.id as string);
}

/** Removes rows for good (live or in the recycle bin); returns which ids existed and which were live. */
export async function hardDeleteRows(db: Executor, table: string, ids: string[]): Promise<{ existed: string[]; live: number }> {
  const deleted = await rows(db).deleteFrom(table).where('id', 'in', ids).returning(['id', '_deleted_at']).execute();
  return { existed: deleted.map((r) => r.id as string), live: deleted.filter((r) => r._deleted_at === null).length };
}

/** A page of live rows in the given order; `id` always breaks ties so that pages never overlap. */
export async function listRows(
  db: Executor,
  table: string,
  columns: string[] | null,
  sort: SortTerm[],
  limit: number,
  offset: number,
): Promise<Array<Record<string, unknown>>> {
  let query = rows(db).selectFrom(table).where('_deleted_at', 'is', null);
  query = columns ? query.select(columns) : query.selectAll();
  for (const term of sort) {
    query = query.orderBy(sql`${sql.ref(term.column)} ${sql.raw(term.ascending ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`);
  }
  const tieBreak = sort.length > 0 ? sort[sort.length - 1].ascending : true;
  query = query.orderBy('id', tieBreak ? 'asc' : 'desc');
  return query.limit(limit).offset(offset).execute();
}

/** Keeps `worksheets.row_count` in step with inserts and deletes, inside the same transaction. */
export async function adjustRowCount(db: Executor, worksheetId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  await db
    .updateTable('worksheets')
    .set((eb) => ({ row_count: eb('row_count', '+', delta) }))
    .where('id', '=', worksheetId)
    .execute();
}

export async function liveRowCount(db: Executor, worksheetId: string): Promise<number> {
  const row = await db.selectFrom('worksheets').select('row_count').where('id', '=', worksheetId).executeTakeFirst();
  return Number(row?.row_count ?? 0);
}

/** Reserves `count` consecutive auto numbers of a field; returns the first. */
export async function reserveAutoNumbers(db: Executor, fieldId: string, count: number): Promise<number> {
  const row = await db
    .insertInto('auto_number_counters')
    .values({ field_id: fieldId, last_value: count })
    .onConflict((oc) => oc.column('field_id').doUpdateSet((eb) => ({ last_value: eb('auto_number_counters.last_value', '+', count) })))
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value) - count + 1;
}
