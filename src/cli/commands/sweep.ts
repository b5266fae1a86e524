import type { Command } from 'commander';
import { runMaintenanceSweep } from '../../jobs/maintenance-sweep.js';
import { printResult, withDatabase } from './with-database.js';

/**
 * `tabularium sweep`: one maintenance sweep now, outside the job queue (what its recurring job does
 * every SWEEP_INTERVAL_MINUTES in a process with workers), printing how many rows of each kind it
 * removed. For cron when the job is off (SWEEP_INTERVAL_MINUTES=0) or no process runs jobs.
 */
export function registerSweep(program: Command): void {
  program
    .command('sweep')
    .description('remove expired sessions, old sign-in failures, spent OAuth codes and token families, and personal access tokens ended 30 days ago; prints the counts')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const counts = await withDatabase((db) => runMaintenanceSweep({ db }, Date.now()));
      printResult({ ...counts }, options.json === true);
    });
}
