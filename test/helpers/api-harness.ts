import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensureSetup, type FreshSetup } from '../../src/modules/setup/index.js';
import { describeEachEngine, type TestDatabase } from './databases.js';
import { SWEEP_JOBS } from './sweep-jobs.js';

export interface ApiOptions {
  /** The app's clock (epoch ms); Date.now when absent. */
  clock?: () => number;
  logger?: FastifyServerOptions['logger'];
  /**
   * false: the recurring sweep jobs are removed once the app is ready, for tests that count the
   * queue's jobs, or move the clock past the sweeps' times and sweep by hand.
   */
  sweeps?: boolean;
  /** Runs on this engine only, the others reported as skipped with the reason. */
  only?: { engine: 'sqlite' | 'postgres'; why: string };
}

/** The envelope every response carries. */
export interface Envelope<T = unknown> {
  success: boolean;
  error_code: number;
  error_msg: string;
  data: T;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: Envelope<T>;
  headers: Record<string, unknown>;
}

/** What a test of the HTTP interface works with: the app, its database, the first app's key. */
export interface ApiContext {
  engine: 'sqlite' | 'postgres';
  app: FastifyInstance;
  database: Database;
  config: Config;
  setup: FreshSetup;
  /** Headers that authenticate as the first app's key. */
  auth: Record<string, string>;
  /** Sends a request as the first app's key (or with `headers` instead). */
  call<T = unknown>(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
}

/**
 * Runs the same API tests on every configured database engine: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (otherwise the block is reported as skipped, with the reason).
 * Each engine gets a fresh database (or schema), set up as on first run, dropped afterwards.
 */
export function describeApi(title: string, define: (ctx: ApiContext) => void, env: Record<string, string> = {}, options: ApiOptions = {}): void {
  describeEachEngine(title, (engine) => {
    const ctx = { engine: engine.name } as ApiContext;
    let testDatabase: TestDatabase;
    beforeAll(async () => {
      testDatabase = await engine.create();
      // Attached files go to a folder of this test's own, whatever the engine.
      // Rate limits are off unless a test sets them: many tests send more requests a minute than the defaults allow.
      ctx.config = loadConfig({
        DATABASE_URL: testDatabase.url,
        LOG_LEVEL: 'silent',
        FILES_DIR: await mkdtemp(join(tmpdir(), 'tabularium-files-')),
        RATE_LIMIT: '0',
        RATE_LIMIT_PER_IP: '0',
        ...env,
      });
      ctx.database = openDatabase(testDatabase.url);
      await migrateToLatest(ctx.database);
      const result = await ensureSetup(ctx.database.db, Date.now());
      if (!result.created) throw new Error('a fresh test database was already set up');
      ctx.setup = result.setup;
      ctx.app = await buildApp({ config: ctx.config, database: ctx.database, logger: options.logger ?? false, clock: options.clock });
      await ctx.app.ready();
      if (options.sweeps === false) await ctx.database.db.deleteFrom('background_jobs').where('id', 'in', SWEEP_JOBS).execute();
      const prefix = ctx.config.headerPrefix;
      ctx.auth = { [`${prefix}-Appkey`]: ctx.setup.app.appKey, [`${prefix}-Sign`]: ctx.setup.app.sign };
      ctx.call = async (method, url, body, headers) => {
        const response = await ctx.app.inject({
          method: method as 'GET',
          url,
          headers: { ...(headers ?? ctx.auth), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
        return { status: response.statusCode, body: response.json(), headers: response.headers };
      };
    });
    afterAll(async () => {
      await ctx.app?.close();
      await ctx.database?.close();
      await testDatabase?.drop();
    });
    define(ctx);
  }, options.only);
}
