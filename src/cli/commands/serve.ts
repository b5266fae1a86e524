import type { Command } from 'commander';
import { loadConfig } from '../../config/index.js';
import { startServer } from '../../server.js';

/** `tabularium serve`: start the server; stop cleanly on SIGTERM/SIGINT. */
export function registerServe(program: Command): void {
  program
    .command('serve', { isDefault: true })
    .description('start the HTTP server (migrates and sets up an empty database first)')
    .action(async () => {
      const server = await startServer(loadConfig());
      const stop = async (signal: string) => {
        server.app.log.info(`${signal}: closing`);
        await server.close();
        process.exit(0);
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    });
}
