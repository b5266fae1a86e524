import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, type Config } from './config/index.js';
import { openDatabase, type Database } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { sqliteCacheShareMb } from './processes/memory-shares.js';
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

/** Turns "cannot listen" into a message naming the setting to change, instead of a stack trace. */
function listenFailure(error: unknown, config: Config): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new ConfigError('PORT', `${config.port} is already in use on ${config.host}: stop the other process or choose another PORT`);
  if (code === 'EACCES') return new ConfigError('PORT', `${config.port} may not be opened by this user on ${config.host}: choose a PORT above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ConfigError('HOST', `${config.host} is not an address of this machine`);
  return error;
}

/** Turns "cannot reach the database" into a message naming DATABASE_URL, instead of a stack trace. */
function databaseFailure(error: unknown): unknown {
  const err = error as { code?: string; message?: string };
  const unreachable = ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', '28P01', '28000', '3D000', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB'];
  if (err?.code && unreachable.includes(err.code)) return new ConfigError('DATABASE_URL', `cannot be opened: ${err.message ?? err.code}`);
  return error;
}

/**
 * Opens and migrates the database, then starts the program on it with `start` (which hands the app
 * to `built` as soon as it exists); `close` closes the app and the database. Whatever fails on the
 * way closes what was opened.
 */
async function startOn<T extends { app: FastifyInstance }>(
  config: Config,
  start: (database: Database, built: (app: FastifyInstance) => FastifyInstance) => Promise<T>,
): Promise<T & { database: Database; close(): Promise<void> }> {
  const database = openDatabase(config.databaseUrl, {
    pgNamedReads: config.pgNamedReads,
    sqliteCacheMb: sqliteCacheShareMb(config.sqliteCacheMb, config.httpProcesses),
  });
  let builtApp: FastifyInstance | undefined;
  try {
    await migrateToLatest(database).catch((error: unknown) => {
      throw databaseFailure(error);
    });
    const started = await start(database, (app) => (builtApp = app));
    const { app } = started;
    return {
      ...started,
      database,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await builtApp?.close();
    await database.close();
    throw error;
  }
}

/**
 * Opens the database, applies migrations, sets up an empty database, listens, and (WORKERS > 0)
 * runs background jobs, the sweeps among them.
 * @example const server = await startServer(loadConfig()); … await server.close();
 */
export function startServer(config: Config): Promise<RunningServer> {
  return startOn(config, async (database, built) => {
    const setup = await ensureSetup(database.db, Date.now());
    // Printed before anything else can fail: the secrets are stored only as hashes, so a start
    // that dies later (port taken, Redis down) must not swallow them.
    printFirstRun(setup, config);
    const app = built(await buildApp({ config, database }));
    const address = await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, config);
    });
    app.log.info(`Tabularium serves ${address} on ${database.dialect.label}; API docs at ${address}/docs`);
    return { app, url: address };
  });
}

export interface RunningWorker {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/**
 * Opens the database, applies migrations and starts the job worker (WORKERS jobs at once) of an
 * app that does not listen: `tabularium worker`, so that workflow runs scale apart from the API
 * (whose processes may then run with WORKERS=0). The app is the server's (buildApp): the same
 * node services (mail, HTTP), the same replanning of lost time triggers when it is ready, the mailer
 * closed with it; the sweeps are among its jobs, so a deployment whose API processes run none
 * (WORKERS=0) sweeps here. With `once`, the worker is not started: the caller runs
 * `app.jobs.runUntilIdle()` (the sweeps that are due included) and closes.
 * @example const worker = await startWorker(loadConfig()); … await worker.close();
 */
export async function startWorker(config: Config, once = false): Promise<RunningWorker> {
  if (config.workers < 1) throw new ConfigError('WORKERS', 'must be at least 1 for tabularium worker, got 0');
  return startOn(config, async (database, built) => {
    const app = built(await buildApp({ config, database, startJobs: !once }));
    await app.ready();
    app.log.info(`Tabularium worker runs ${config.workers} background jobs at once on ${database.dialect.label}${once ? ', until none is due' : ''}`);
    return { app };
  });
}
