import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { startServer } from '../../server.js';

/**
 * How long requests in progress get to finish after SIGTERM/SIGINT. Connections a client keeps
 * open without finishing its request (a load generator stopped mid-request, a stalled upload) would
 * otherwise hold the process until the HTTP timeouts, minutes later.
 */
const SHUTDOWN_GRACE_MS = 5_000;

/** `tabularium serve`: start the server; stop cleanly on SIGTERM/SIGINT. */
export function registerServe(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('start the HTTP server (migrates and sets up an empty database first)')
    .action(async () => {
      const server = await startServer(loadConfig());
      const stop = async (signal: string) => {
        server.app.log.info(`${signal}: closing`);
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
