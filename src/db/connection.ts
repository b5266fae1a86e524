import { Kysely } from 'kysely';
import type { MetaSchema } from './schema.js';
import type { SqlDialect } from './dialect/sql-dialect.js';
import { createSqliteDialect } from './dialect/sqlite.js';
import { createPostgresDialect } from './dialect/postgres.js';

/** An open database: the typed query builder and the engine's dialect. */
export interface Database {
  db: Kysely<MetaSchema>;
  dialect: SqlDialect;
  close(): Promise<void>;
}

/** Any transaction or the root connection; services accept either. */
export type Executor = Kysely<MetaSchema>;

/**
 * Opens the database a URL names: `sqlite:<file>` (or `sqlite::memory:`) or `postgres://…`.
 * @example const { db } = openDatabase('sqlite:./data/tabularium.db');
 */
export function openDatabase(url: string): Database {
  const dialect = url.startsWith('sqlite:')
    ? createSqliteDialect(url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, ''))
    : createPostgresDialect(url);
  const db = new Kysely<MetaSchema>({ dialect: dialect.kyselyDialect });
  return { db, dialect, close: () => db.destroy() };
}
