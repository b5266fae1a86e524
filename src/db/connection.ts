import { Kysely } from 'kysely';
import type { MetaSchema } from './schema.js';
import { queryBuilderReader, type RowReader } from './row-reader.js';
import type { SqlDialect } from './dialect/sql-dialect.js';
import { createSqliteDialect } from './dialect/sqlite.js';
import { createPostgresDialect } from './dialect/postgres.js';

/** An open database: the typed query builder, the engine's dialect, and its fast read path. */
export interface Database {
  db: Kysely<MetaSchema>;
  dialect: SqlDialect;
  /** Reads of committed rows outside any transaction (record gets and lists). */
  reader: RowReader;
  close(): Promise<void>;
}

/** Any transaction or the root connection; services accept either. */
export type Executor = Kysely<MetaSchema>;

/** How a database is opened beyond its URL. */
export interface OpenOptions {
  /** PostgreSQL: how many repeated reads get a prepared statement per connection (`PG_NAMED_READS`; 0: none). */
  pgNamedReads?: number;
  /** SQLite: the page cache of each connection in megabytes (64 when not given). */
  sqliteCacheMb?: number;
}

/**
 * Opens the database a URL names: `sqlite:<file>` (or `sqlite::memory:`) or `postgres://…`.
 * @example const { db } = openDatabase('sqlite:./data/tabularium.db');
 */
export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const dialect = url.startsWith('sqlite:')
    ? createSqliteDialect(url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, ''), options.sqliteCacheMb)
    : createPostgresDialect(url, undefined, options.pgNamedReads);
  const db = new Kysely<MetaSchema>({ dialect: dialect.kyselyDialect });
  const reader = dialect.rows ?? queryBuilderReader(db as unknown as Kysely<unknown>);
  return {
    db,
    dialect,
    reader,
    close: async () => {
      await db.destroy();
      await reader.close();
    },
  };
}
