import { CompiledQuery, sql, type Compilable, type Kysely } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { ReadRow, RowReader } from '../../db/row-reader.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { cachedSqlText, shapedStatement } from '../../db/sql-text-cache.js';
import type { ScopedRows } from '../../access/index.js';
import { sortExpression } from './sort-expression.js';

/**
 * SQL over worksheet row tables. Tables and columns are named at run time (one table per
 * worksheet, one column per field id), so this module talks to an untyped view of Kysely.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RowDb = Kysely<any>;

/** The query builder as an untyped view, for tables named at run time (row tables, link tables). */
export function rows(db: Executor): RowDb {
  return db as unknown as RowDb;
}

export interface SortTerm {
  column: string;
  ascending: boolean;
  /** Sort by the position of the stored key in this list (choice fields); empty values first. */
  optionOrder?: string[];
}

/** The ORDER BY expression of one term, on the column as `qualifier.column` when given. */
function orderExpression(term: SortTerm, qualifier?: string) {
  return sortExpression(sql.ref(qualifier ? `${qualifier}.${term.column}` : term.column), term.ascending, term.optionOrder);
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
    const text = cachedSqlText(dialect, `insert|${table}|${chunk.length}|${columns.join(',')}`, () => rows(db).insertInto(table).values(chunk).compile().sql);
    await db.executeQuery(CompiledQuery.raw(text, parameters));
  }
}

/**
 * Where reads of committed rows go: the query builder writes their SQL (it needs no connection for
 * that), the engine's row reader runs it (`db/row-reader.ts`).
 */
export interface RowSource {
  db: Executor;
  reader: RowReader;
}

async function read(source: RowSource, query: Compilable): Promise<ReadRow[]> {
  const { sql: text, parameters } = query.compile();
  return source.reader.read(text, parameters);
}

/**
 * One live row by id, with the given columns, if the predicate (the caller's data scope, `access/`) lets it through. Without a
 * predicate (the usual get) the statement is the same for every id of a table, and its text is
 * built once.
 */
export async function findRow(source: RowSource, dialect: SqlDialect, table: string, id: string, columns: string[], predicate: ScopedRows): Promise<ReadRow | undefined> {
  const query = () => rows(source.db).selectFrom(table).select(columns).where('id', '=', id).where('_deleted_at', 'is', null);
  if (predicate.everyRow) {
    const text = cachedSqlText(dialect, `find-row|${table}|${columns.join(',')}`, () => query().compile().sql);
    return (await source.reader.read(text, [id]))[0];
  }
  return (await read(source, query().where(predicate.expression)))[0];
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

/** Moves live rows to the recycle bin, noting when and by whom; returns the ids that were live. */
export async function softDeleteRows(db: Executor, table: string, ids: string[], at: number, actor: string): Promise<string[]> {
  const deleted = await rows(db)
    .updateTable(table)
    .set({ _deleted_at: at, _deleted_by: actor })
    .where('id', 'in', ids)
    .where('_deleted_at', 'is', null)
    .returning('id')
    .execute();
  return deleted.map((r) => r.id as string);
}

/** Which of these ids are live rows of a row table. */
export async function liveRecordIds(db: Executor, table: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await rows(db).selectFrom(table).select('id').where('id', 'in', ids).where('_deleted_at', 'is', null).execute();
  return new Set(found.map((row) => row.id as string));
}

/** Which of these ids are rows of a row table (live ones, by default) that a caller's data scope lets through. */
export async function visibleLiveIds(db: Executor, table: string, ids: string[], predicate: ScopedRows, state: RowState | 'any' = 'live'): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  let query = rows(db).selectFrom(table).select('id').where('id', 'in', ids);
  if (state !== 'any') query = inState(query, state);
  if (!predicate.everyRow) query = query.where(predicate.expression);
  return new Set((await query.execute()).map((row) => row.id as string));
}

/**
 * The title column and creation time of the live rows among `ids` (with `evenDeleted`, of those in
 * the recycle bin too), read outside any transaction.
 */
export async function rowTitles(source: RowSource, table: string, titleColumn: string, ids: string[], evenDeleted = false): Promise<Array<{ id: unknown; title: unknown; created: unknown }>> {
  let query = rows(source.db).selectFrom(table).select(['id', `${titleColumn} as title`, '_created_at as created']).where('id', 'in', ids);
  if (!evenDeleted) query = query.where('_deleted_at', 'is', null);
  return (await read(source, query)) as Array<{ id: unknown; title: unknown; created: unknown }>;
}

/** Up to `limit` ids of rows moved to the recycle bin before `cutoff` (epoch milliseconds). */
export async function deletedBefore(db: Executor, table: string, cutoff: number, limit: number): Promise<string[]> {
  const found = await rows(db).selectFrom(table).select('id').where('_deleted_at', 'is not', null).where('_deleted_at', '<', cutoff).limit(limit).execute();
  return found.map((row) => row.id as string);
}

/** The stored (driver) values of these columns of one row, live or in the recycle bin. */
export async function anyRowValues(db: Executor, table: string, id: string, columns: string[]): Promise<Record<string, unknown> | undefined> {
  return rows(db).selectFrom(table).select(['id', ...columns]).where('id', '=', id).executeTakeFirst();
}

/** When and by whom a row was made, live or in the recycle bin, if the caller's data scope lets it through; undefined otherwise. */
export async function rowCreation(db: Executor, table: string, id: string, predicate: ScopedRows): Promise<{ createdAt: number; createdBy: string } | undefined> {
  let query = rows(db).selectFrom(table).select(['_created_at', '_created_by']).where('id', '=', id);
  if (!predicate.everyRow) query = query.where(predicate.expression);
  const row = await query.executeTakeFirst();
  return row ? { createdAt: Number(row._created_at), createdBy: String(row._created_by) } : undefined;
}

/** Brings rows back from the recycle bin; returns the ids that were there. */
export async function restoreRows(db: Executor, table: string, ids: string[], actor: string, at: number): Promise<string[]> {
  const restored = await rows(db)
    .updateTable(table)
    .set({ _deleted_at: null, _deleted_by: null, _updated_by: actor, _updated_at: at })
    .where('id', 'in', ids)
    .where('_deleted_at', 'is not', null)
    .returning('id')
    .execute();
  return restored.map((r) => r.id as string);
}

/** Removes rows for good (live or in the recycle bin); returns each removed id and whether it was live. */
export async function hardDeleteRows(db: Executor, table: string, ids: string[]): Promise<Array<{ id: string; wasLive: boolean }>> {
  const deleted = await rows(db).deleteFrom(table).where('id', 'in', ids).returning(['id', '_deleted_at']).execute();
  return deleted.map((r) => ({ id: r.id as string, wasLive: r._deleted_at === null }));
}

/** The stored (driver) values of these columns of the live rows among `ids`, by id; none read when no column is asked. */
export async function liveValues(db: Executor, table: string, ids: string[], columns: string[]): Promise<Map<string, Record<string, unknown>>> {
  if (columns.length === 0) return new Map();
  const found = await rows(db).selectFrom(table).select(['id', ...columns]).where('id', 'in', ids).where('_deleted_at', 'is', null).execute();
  return new Map(found.map((row) => [row.id as string, row]));
}

/** Up to `limit` ids of live rows after `afterId` (from the first when null), in id order. */
export async function liveIdsAfter(db: Executor, table: string, afterId: string | null, limit: number): Promise<string[]> {
  let query = rows(db).selectFrom(table).select('id').where('_deleted_at', 'is', null);
  if (afterId !== null) query = query.where('id', '>', afterId);
  const found = await query.orderBy('id').limit(limit).execute();
  return found.map((row) => row.id as string);
}

/** How many live rows a table has, counted in `db` (a transaction sees its own writes). */
export async function countLive(db: Executor, table: string): Promise<number> {
  const row = await rows(db).selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).where('_deleted_at', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Which rows a list reads: the live ones, or those in the recycle bin. */
export type RowState = 'live' | 'bin';

function inState<Q extends { where: (column: string, op: 'is' | 'is not', value: null) => Q }>(query: Q, state: RowState): Q {
  return query.where('_deleted_at', state === 'live' ? 'is' : 'is not', null);
}

/**
 * A page of live rows (or rows in the recycle bin) that the predicate lets through, in the given order; `id` always breaks
 * ties so that pages never overlap. One statement: the page's ids are found first, in a subquery
 * (from the sort index alone when there is no filter: a deep page skips index entries, not rows),
 * then only those rows are read and put in order again, which costs a sort of one page.
 */
export async function listRows(
  source: RowSource,
  table: string,
  columns: string[],
  predicate: ScopedRows,
  sort: SortTerm[],
  limit: number,
  offset: number,
  state: RowState = 'live',
): Promise<ReadRow[]> {
  const tieBreak = sort.length > 0 && !sort[sort.length - 1].ascending ? 'desc' : 'asc';
  const build = () => {
    let page = inState(rows(source.db).selectFrom(table).select('id'), state);
    if (!predicate.everyRow) page = page.where(predicate.expression);
    for (const term of sort) page = page.orderBy(orderExpression(term));
    page = page.orderBy('id', tieBreak).limit(limit).offset(offset);
    let query = rows(source.db)
      .selectFrom(`${table} as t`)
      .select(columns.map((column) => `t.${column}`))
      .where('t.id', 'in', page);
    for (const term of sort) query = query.orderBy(orderExpression(term, 't'));
    return query.orderBy('t.id', tieBreak).compile();
  };
  // The statement's text is built once per shape: the filter's own SQL (compiled alone, a fraction
  // of the whole statement's cost), the columns and the sort. Its parameters are the filter's, the
  // option keys of the sort (in the page's ORDER BY and again in the outer one), the limit and offset.
  const filter = predicate.everyRow ? null : rows(source.db).selectFrom(table).select('id').where(predicate.expression).compile();
  const sortKeys = sort.flatMap((term) => term.optionOrder ?? []);
  const parameters = [...(filter?.parameters ?? []), ...sortKeys, limit, offset, ...sortKeys];
  const shape = `list|${table}|${state}|${columns.join(',')}|${JSON.stringify(sort)}|${filter?.sql ?? ''}`;
  const statement = shapedStatement(source.db, shape, build, parameters);
  return source.reader.read(statement.sql, statement.parameters);
}

/** The statement that counts the live rows (or those in the recycle bin) the predicate lets through, and its parameters. */
export function countStatement(source: RowSource, table: string, predicate: ScopedRows, state: RowState = 'live'): { sql: string; parameters: readonly unknown[] } {
  let query = inState(rows(source.db).selectFrom(table).select((eb) => eb.fn.countAll<number>().as('total')), state);
  if (!predicate.everyRow) query = query.where(predicate.expression);
  return query.compile();
}

/** How many live rows a statement of `countStatement` finds. */
export async function countRows(source: RowSource, statement: { sql: string; parameters: readonly unknown[] }): Promise<number> {
  return Number((await source.reader.read(statement.sql, statement.parameters))[0]?.total ?? 0);
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
