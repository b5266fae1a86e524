import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { startWorker } from '../../server.js';

/**
 * `tabularium worker`: runs workflow runs and the other background jobs of the database, without
 * the HTTP interface, WORKERS (default 4) at once. Several workers (and servers) share one
 * PostgreSQL database: each step of a run commits once, whichever process runs it. Stops cleanly
 * on SIGTERM/SIGINT, letting the jobs it runs finish; a job it holds when killed is taken over by
 * another worker once its lease ends. `--once` runs what is due until nothing is, then exits.
 */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('run workflow runs and other background jobs without serving HTTP (WORKERS at once, default 4)')
    .option('--once', 'run the jobs that are due until none is, then exit')
    .action(async (options: { once?: boolean }) => {
      const worker = await startWorker(loadConfig(), options.once === true);
      if (options.once) {
        const ran = await worker.app.jobs.runUntilIdle();
        worker.app.log.info(`ran ${ran} background jobs; none is due now`);
        await worker.close();
        return;
      }
      // The worker's poll timers do not hold the process open (a server's socket does): this does.
      const keepAlive = setInterval(() => undefined, 1 << 30);
      const stop = async (signal: string) => {
        worker.app.log.info(`${signal}: letting the jobs in hand finish, then closing`);
        clearInterval(keepAlive);
        await worker.close();
        process.exit(0);
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    });
}
