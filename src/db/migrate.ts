import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';

/** Applies every pending migration; throws (and applies nothing more) when one fails. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  const migrator = new Migrator({ db: db as unknown as Kysely<unknown>, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
