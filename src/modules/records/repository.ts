import { CompiledQuery, sql, type Kysely } from 'kysely';
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

/**
 * SQL text of multi-row inserts by (table, columns, row count), per engine. Building a 1000-row
 * insert through the query builder costs more than running it, and batches repeat their shape.
 */
const insertSqlCache = new WeakMap<SqlDialect, Map<string, string>>();
const INSERT_CACHE_SIZE = 64;

function cachedInsertSql(db: Executor, dialect: SqlDialect, table: string, columns: string[], chunk: Array<Record<string, unknown>>): string {
  let cache = insertSqlCache.get(dialect);
  if (!cache) insertSqlCache.set(dialect, (cache = new Map()));
  const key = `${table}|${chunk.length}|${columns.join(',')}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = rows(db).insertInto(table).values(chunk).compile().sql;
    cache.set(key, text);
    if (cache.size > INSERT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  return text;
}

/**
 * Inserts rows that all have the same columns in the same order, in as few statements as the
 * engine's parameter limit allows.
 */
export async function insertRows(db: Executor, dialect: SqlDialect, table: string, records: Array<Record<string, unknown>>): Promise<void> {
  if (records.length === 0) return;
  const columns = Object.keys(records[0]);
  const perStatement = Math.max(1, Math.floor(dialect.maxParameters / columns.length));
  for (let start = 0; start < records.length; start += perStatement) {
    const chunk = records.slice(start, start + perStatement);
    const parameters: unknown[] = [];
    for (const record of chunk) for (const column of columns) parameters.push(record[column]);
    await db.executeQuery(CompiledQuery.raw(cachedInsertSql(db, dialect, table, columns, chunk), parameters));
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

/**
 * A page of live rows in the given order; `id` always breaks ties so that pages never overlap.
 * The page's ids are found first from the sort index alone (a deep page skips index entries, not
 * rows), then only those rows are read.
 */
export async function listRows(
  db: Executor,
  table: string,
  columns: string[] | null,
  sort: SortTerm[],
  limit: number,
  offset: number,
): Promise<Array<Record<string, unknown>>> {
  let pageQuery = rows(db).selectFrom(table).select('id').where('_deleted_at', 'is', null);
  for (const term of sort) {
    pageQuery = pageQuery.orderBy(sql`${sql.ref(term.column)} ${sql.raw(term.ascending ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`);
  }
  const tieBreak = sort.length > 0 ? sort[sort.length - 1].ascending : true;
  const page = await pageQuery.orderBy('id', tieBreak ? 'asc' : 'desc').limit(limit).offset(offset).execute();
  if (page.length === 0) return [];
  const ids = page.map((r) => r.id as string);
  const rowQuery = rows(db).selectFrom(table).where('id', 'in', ids).where('_deleted_at', 'is', null);
  const found = await (columns ? rowQuery.select(columns) : rowQuery.selectAll()).execute();
  const byId = new Map(found.map((r) => [r.id as string, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is Record<string, unknown> => r !== undefined);
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
