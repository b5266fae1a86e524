import { sql, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';
import type { SqlDialect } from './dialect/sql-dialect.js';
import type { MetaSchema } from './schema.js';

/**
 * Applies every pending migration, in name order, in one transaction: all of them or none.
 *
 * Our own small runner rather than Kysely's Migrator: that one looks for its bookkeeping tables
 * across every schema of a PostgreSQL database, so installations (or test runs) that share a
 * database in separate schemas see each other's tables, and fail when one is dropped meanwhile.
 * This one only looks at the current schema, and serialises concurrent starts with the
 * engine's migration lock.
 * @example await migrateToLatest(openDatabase(url));
 */
export async function migrateToLatest({ db, dialect }: { db: Kysely<MetaSchema>; dialect: SqlDialect }): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    if (dialect.migrationLockSql) await sql.raw(dialect.migrationLockSql).execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS tabularium_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(trx);
    const done = await sql<{ name: string }>`SELECT name FROM tabularium_migrations`.execute(trx);
    const applied = new Set(done.rows.map((r) => r.name));
    const pending = Object.keys(migrations)
      .sort()
      .filter((name) => !applied.has(name));
    for (const name of pending) {
      await migrations[name].up(trx as unknown as Kysely<unknown>, dialect);
      await sql`INSERT INTO tabularium_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(trx);
    }
    return pending;
  });
}
