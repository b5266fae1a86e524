import { loadConfig } from '../../config/index.js';
import { openDatabase } from '../../db/connection.js';
import type { Database, Executor } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';

/** Opens the configured database, runs `work`, and closes it again. */
export async function withOpenDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { pgNamedReads: config.pgNamedReads, sqliteCacheMb: config.sqliteCacheMb });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** Opens the configured database migrated to the latest schema, runs `work`, and closes it again. */
export async function withDatabase<T>(work: (db: Executor) => Promise<T>): Promise<T> {
  return withOpenDatabase(async (database) => {
    await migrateToLatest(database);
    return work(database.db);
  });
}

/** Prints a result as JSON (for `--json`) or as aligned `key  value` lines. */
export function printResult(result: Record<string, unknown>, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const flat = (value: Record<string, unknown>, prefix = ''): Array<[string, string]> =>
    Object.entries(value).flatMap(([key, v]) =>
      v !== null && typeof v === 'object' ? flat(v as Record<string, unknown>, `${prefix}${key}.`) : [[`${prefix}${key}`, String(v)] as [string, string]],
    );
  const rows = flat(result);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [key, value] of rows) process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
}
