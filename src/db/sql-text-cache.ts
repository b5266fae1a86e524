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
    cache.set(key, text);
    if (cache.size > SIZE) cache.delete(cache.keys().next().value!);
  }
  return text;
}
