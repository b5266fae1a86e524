import type { Command } from 'commander';
import { createAppWithKey } from '../../modules/setup/index.js';
import { printResult, withDatabase } from './with-database.js';

/** `tabularium apps create --name NAME [--json]`: a new application with its first key. */
export function registerApps(program: Command): void {
  const apps = program.command('apps').description('manage applications');
  apps
    .command('create')
    .description('create an application and its first key; prints the secret and Sign once')
    .requiredOption('--name <name>', 'the application name')
    .option('--json', 'print JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      const result = await withDatabase((db) => createAppWithKey(db, options.name, Date.now()));
      printResult({ ...result }, options.json === true);
    });
}
