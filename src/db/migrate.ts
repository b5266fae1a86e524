import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';
import type { SqlDialect } from './dialect/sql-dialect.js';
import type { MetaSchema } from './schema.js';

/** Applies every pending migration; throws (and applies nothing more) when one fails. */
export async function migrateToLatest({ db, dialect }: { db: Kysely<MetaSchema>; dialect: SqlDialect }): Promise<string[]> {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    ...(dialect.schema ? { migrationTableSchema: dialect.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
