import type { Command } from 'commander';
import { printResult, withOpenDatabase } from './with-database.js';
import { migrateToLatest } from '../../db/migrate.js';

/** `tabularium migrate`: apply pending migrations (the server also does this at start). */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      // Not withDatabase: it migrates first, and this command would then report nothing applied.
      const applied = await withOpenDatabase((database) => migrateToLatest(database));
      printResult({ applied: applied.length === 0 ? 'none (up to date)' : applied.join(', ') }, options.json === true);
    });
}
