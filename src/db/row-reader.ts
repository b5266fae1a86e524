import { CompiledQuery, type Kysely } from 'kysely';

/** A row as read: one key per selected column. */
export type ReadRow = Record<string, unknown>;

/**
 * Reads committed rows outside any transaction, by the fastest means the engine has: on SQLite a
 * second, read-only connection (WAL lets it read while the writer writes, and it never sees a
 * transaction in progress on the writer), on PostgreSQL the pool with rows as arrays. Both skip the
 * query builder's per-row object building: a row becomes an object in one call of a constructor
 * made once per column list (`rowMaker`).
 *
 * Reads that must see a transaction's own writes go through that transaction (`Executor`), not here.
 * @example const rows = await reader.read('SELECT id FROM ws_x WHERE id = ?', ['r1']);
 */
export interface RowReader {
  read(sql: string, parameters: readonly unknown[]): Promise<ReadRow[]>;
  close(): Promise<void>;
}

const makers = new Map<string, (values: readonly unknown[]) => ReadRow>();
const MAKERS = 512;

/**
 * A function that turns an array of column values into an object with these keys. Objects built by
 * one literal share V8's hidden class, which makes them cheaper to build and to read than objects
 * grown key by key (as drivers build them). Column names are quoted with JSON.stringify.
 * @example rowMaker(['id', 'name'])(['r1', 'Ann']) // { id: 'r1', name: 'Ann' }
 */
export function rowMaker(columns: readonly string[]): (values: readonly unknown[]) => ReadRow {
  const key = columns.join('\u0000');
  let maker = makers.get(key);
  if (!maker) {
    const body = `return {${columns.map((column, i) => `${JSON.stringify(column)}: values[${i}]`).join(', ')}};`;
    maker = new Function('values', body) as (values: readonly unknown[]) => ReadRow;
    makers.set(key, maker);
    if (makers.size > MAKERS) makers.delete(makers.keys().next().value!);
  }
  return maker;
}

/**
 * The reader of an engine without a separate read path (an in-memory SQLite database has only its
 * one connection): through the query builder, which serialises it with the transactions.
 */
export function queryBuilderReader(db: Kysely<unknown>): RowReader {
  return {
    read: async (sql, parameters) => (await db.executeQuery<ReadRow>(CompiledQuery.raw(sql, [...parameters]))).rows,
    close: async () => undefined,
  };
}
