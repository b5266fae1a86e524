import type { Command } from 'commander';
import { ensureSetup } from '../../modules/setup/index.js';
import { printResult, withDatabase } from './with-database.js';

/** `tabularium setup [--json]`: first-run setup; on a set-up database, prints the ids only. */
export function registerSetup(program: Command): void {
  program
    .command('setup')
    .description('create the organization, owner account and first app with a key, on an empty database')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const result = await withDatabase((db) => ensureSetup(db, Date.now()));
      printResult(result.setup as unknown as Record<string, unknown>, options.json === true);
    });
}
