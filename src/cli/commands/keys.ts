import type { Command } from 'commander';
import { addKey } from '../../modules/setup/index.js';
import { printResult, withDatabase } from './with-database.js';

/** `tabularium keys create --app ID [--read-only] [--json]`: another key for an application. */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage app keys');
  keys
    .command('create')
    .description('add a key to an application; prints the secret and Sign once')
    .requiredOption('--app <appId>', 'the application id')
    .option('--read-only', 'the key may only read')
    .option('--json', 'print JSON')
    .action(async (options: { app: string; readOnly?: boolean; json?: boolean }) => {
      const result = await withDatabase((db) => addKey(db, options.app, options.readOnly === true, Date.now()));
      printResult({ ...result }, options.json === true);
    });
}
