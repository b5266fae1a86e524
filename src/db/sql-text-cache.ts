import { CompiledQuery, type QueryResult } from 'kysely';
import type { Executor } from './connection.js';
import type { SqlDialect } from './dialect/sql-dialect.js';

const SIZE = 512;
const caches = new WeakMap<SqlDialect, Map<string, string>>();

/**
 * SQL text by a caller-chosen key, per engine: the query builder runs once per shape instead of
 * once per request. The key must name everything that shapes the SQL (table, columns, number of
 * values); the caller passes the parameters in the order the compiled SQL expects them.
 * @example const text = cachedSqlText(dialect, `find|${table}`, () => query.compile().sql);
 */
export function cachedSqlText(dialect: SqlDialect, key: string, compile: () => string): string {
  let cache = caches.get(dialect);
  if (!cache) caches.set(dialect, (cache = new Map()));
  let text = cache.get(key);
  if (text === undefined) {
    text = compile();
    remember(cache, key, text);
  }
  return text;
}

const byAdapter = new WeakMap<object, Map<string, string>>();

/**
 * Runs a statement whose SQL text is built once per `key` and engine (found from `db` itself, a
 * connection or a transaction, so that callers need not carry the dialect): for statements that run
 * for every job or run, where building the query would cost as much as running it. `build` makes the
 * query the first time; `parameters` must be in the order its compiled SQL expects them.
 * @example await executeCached(trx, 'jobs|finish', () => trx.deleteFrom('background_jobs').where('id', '=', ''), [jobId])
 */
export async function executeCached<R = unknown>(db: Executor, key: string, build: () => { compile(): { sql: string } }, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  const cache = textsOf(db);
  let text = cache.get(key);
  if (text === undefined) {
    text = build().compile().sql;
    remember(cache, key, text);
  }
  return db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]));
}

/** The texts kept for the engine `db` runs on (its adapter: the same for a connection and its transactions). */
function textsOf(db: Executor): Map<string, string> {
  const adapter = db.getExecutor().adapter;
  let cache = byAdapter.get(adapter);
  if (!cache) byAdapter.set(adapter, (cache = new Map()));
  return cache;
}

function remember(cache: Map<string, string>, key: string, text: string): void {
  cache.set(key, text);
  if (cache.size > SIZE) cache.delete(cache.keys().next().value!);
}

/**
 * A read statement whose text is built once per `key` (its shape) and engine, for a caller that can
 * list the statement's parameters without the query builder (`parameters`). The first time, the
 * query is built and compiled; its text is kept only when its compiled parameters are exactly
 * `parameters`, so a wrong guess of their order costs a compile per request, never a wrong statement.
 * @example const { sql, parameters } = shapedStatement(db, `list|${table}|${filterText}`, () => query.compile(), [...filterParameters, limit, offset]);
 */
export function shapedStatement(db: Executor, key: string, compile: () => { sql: string; parameters: readonly unknown[] }, parameters: readonly unknown[]): { sql: string; parameters: readonly unknown[] } {
  const cache = textsOf(db);
  const text = cache.get(key);
  if (text !== undefined) return { sql: text, parameters };
  const compiled = compile();
  const same = compiled.parameters.length === parameters.length && compiled.parameters.every((value, i) => Object.is(value, parameters[i]));
  if (same) remember(cache, key, compiled.sql);
  return { sql: compiled.sql, parameters: compiled.parameters };
}
