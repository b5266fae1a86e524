import cluster from 'node:cluster';
import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';

/**
 * How long requests in progress get to finish after SIGTERM/SIGINT. Connections a client keeps
 * open without finishing its request (a load generator stopped mid-request, a stalled upload) would
 * otherwise hold the process until the HTTP timeouts, minutes later.
 */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * `tabularium serve`: start the server (with HTTP_PROCESSES > 1, a supervisor and that many server
 * processes, `processes/supervisor.ts`); stop cleanly on SIGTERM/SIGINT.
 */
export function registerServe(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('start the HTTP server (migrates and sets up an empty database first)')
    .action(async () => {
      const config = loadConfig();
      if (config.httpProcesses > 1 && cluster.isPrimary) {
        const { superviseServers } = await import('../../processes/supervisor.js');
        superviseServers(config);
        return;
      }
      // Linked before it caches anything: every change notice from then on reaches it.
      const unlink = cluster.isWorker ? (await import('../../processes/worker-link.js')).linkToSupervisor() : undefined;
      const { startServer } = await import('../../server.js');
      const server = await startServer(config);
      let stopping = false;
      const stop = async (signal: string) => {
        // A supervised process may get both: SIGINT from the terminal, SIGTERM from its supervisor.
        if (stopping) return;
        stopping = true;
        server.app.log.info(`${signal}: closing`);
        unlink?.();
        setTimeout(() => {
          server.app.log.warn(`requests still open ${SHUTDOWN_GRACE_MS} ms after ${signal}: closing their connections`);
          server.app.server.closeAllConnections();
        }, SHUTDOWN_GRACE_MS).unref();
        await server.close();
        process.exit(0);
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    });
}
