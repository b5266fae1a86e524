import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config/index.js';
import { openDatabase, type Database } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { ensureSetup } from './modules/setup/index.js';

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  close(): Promise<void>;
}

function printFirstRun(setup: Awaited<ReturnType<typeof ensureSetup>>, config: Config): void {
  if (!setup.created) return;
  const { owner, app } = setup.setup;
  const lines = [
    '',
    'Tabularium is set up. These secrets are shown once; keep them:',
    `  owner account   ${owner.email}  password ${owner.password}`,
    `  first app       ${app.appId}`,
    `  ${config.headerPrefix}-Appkey      ${app.appKey}`,
    `  SecretKey       ${app.secretKey}`,
    `  ${config.headerPrefix}-Sign        ${app.sign}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Opens the database, applies migrations, sets up an empty database, and listens.
 * @example const server = await startServer(loadConfig()); … await server.close();
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    const setup = await ensureSetup(database.db, Date.now());
    const app = await buildApp({ config, database });
    const address = await app.listen({ port: config.port, host: config.host });
    printFirstRun(setup, config);
    app.log.info(`Tabularium serves ${address} on ${database.dialect.label}; API docs at ${address}/docs`);
    return {
      app,
      database,
      url: address,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
