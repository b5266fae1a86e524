import Database from 'better-sqlite3';
import { rowMaker, type ReadRow, type RowReader } from '../row-reader.js';

const STATEMENT_CACHE_SIZE = 256;

interface CachedRead {
  statement: Database.Statement;
  make: (values: readonly unknown[]) => ReadRow;
}

/** The SQLite row reader, and how the writer tells it that the schema changed. */
export interface SqliteRowReader extends RowReader {
  /** Drops every prepared statement: their column lists may be out of date after DDL. */
  forgetStatements(): void;
}

/**
 * Reads on a second, read-only connection to the same file. In WAL mode it reads the last
 * committed state while the writer writes, and never sees a transaction the writer has open (on
 * the one shared connection a read could run inside another request's transaction, between two
 * of its statements, and see writes that are later rolled back). Statements are prepared once per
 * SQL text and return rows as arrays, turned into objects by a constructor made once per statement.
 * @example const reader = createSqliteReader('./data/t.db', prepareConnection);
 */
export function createSqliteReader(file: string, prepareConnection: (connection: Database.Database) => void): SqliteRowReader {
  const connection = new Database(file, { readonly: true });
  prepareConnection(connection);
  const cache = new Map<string, CachedRead>();

  function prepared(text: string): CachedRead {
    const hit = cache.get(text);
    if (hit) return hit;
    const statement = connection.prepare(text).raw(true);
    const entry = { statement, make: rowMaker(statement.columns().map((column) => column.name)) };
    cache.set(text, entry);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return entry;
  }

  return {
    read: async (text, parameters) => {
      const { statement, make } = prepared(text);
      const rows = statement.all(...parameters) as unknown[][];
      const out: ReadRow[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = make(rows[i]);
      return out;
    },
    forgetStatements: () => cache.clear(),
    close: async () => {
      cache.clear();
      connection.close();
    },
  };
}
