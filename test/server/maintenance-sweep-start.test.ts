import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { MAINTENANCE_SWEEP_JOB } from '../../src/jobs/maintenance-sweep.js';
import { ensureSetup } from '../../src/modules/setup/index.js';
import { SESSION_IDLE_MS } from '../../src/modules/sign-in/index.js';
import { startServer, startWorker } from '../../src/server.js';
import { SWEEP_JOBS } from '../helpers/sweep-jobs.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';

/**
 * The server plans the sweeps as it starts; the maintenance sweep is due at once, and runs in a
 * process with workers: not in an API-only server (WORKERS=0), and not at all with
 * SWEEP_INTERVAL_MINUTES=0.
 */
describeEachEngine('maintenance sweep at server start', (engine) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let ownerId: string;

  beforeAll(async () => {
    testDatabase = await engine.create();
    database = openDatabase(testDatabase.url);
    await migrateToLatest(database);
    ownerId = (await ensureSetup(database.db, Date.now())).setup.owner.accountId;
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  const settings = async (env: Record<string, string>) => loadConfig({ DATABASE_URL: testDatabase.url, PORT: '0', LOG_LEVEL: 'silent', FILES_DIR: await mkdtemp(join(tmpdir(), 'tabularium-files-')), ...env });
  const idleSession = async () => {
    const longAgo = Date.now() - SESSION_IDLE_MS - 1000;
    await database.db.insertInto('sessions').values({ id: 'idle session', account_id: ownerId, data: '{}', created_at: longAgo, seen_at: longAgo }).execute();
  };
  const sessions = async () => (await database.db.selectFrom('sessions').select('id').execute()).map((row) => row.id);
  const plannedSweeps = async () => (await database.db.selectFrom('background_jobs').select(['id', 'status', 'attempts']).where('id', 'in', SWEEP_JOBS).orderBy('id').execute()).map((row) => [row.id, row.status, Number(row.attempts)]);

  it('plans but does not run the sweeps without workers (WORKERS=0); a worker process runs the maintenance sweep', async () => {
    await idleSession();
    const api = await startServer(await settings({ WORKERS: '0' }));
    // Closing waits for whatever the server runs: a sweep started with it would be done by then.
    await api.close();
    expect(await sessions()).toEqual(['idle session']);
    expect(await plannedSweeps()).toEqual(SWEEP_JOBS.map((id) => [id, 'queued', 0]).sort());

    const worker = await startWorker(await settings({ WORKERS: '1' }), true);
    try {
      expect(await worker.app.jobs.runUntilIdle()).toBe(1);
    } finally {
      await worker.close();
    }
    expect(await sessions()).toEqual([]);
    const next = await database.db.selectFrom('background_jobs').select('run_at').where('id', '=', MAINTENANCE_SWEEP_JOB).executeTakeFirstOrThrow();
    expect(Number(next.run_at)).toBeGreaterThan(Date.now() + 59 * 60_000);
  });

  it('drops the maintenance job with SWEEP_INTERVAL_MINUTES=0, and does not sweep', async () => {
    await idleSession();
    const server = await startServer(await settings({ SWEEP_INTERVAL_MINUTES: '0', WORKERS: '1' }));
    try {
      expect((await plannedSweeps()).map(([id]) => id)).not.toContain(MAINTENANCE_SWEEP_JOB);
      expect(await server.app.jobs.runUntilIdle()).toBe(0);
    } finally {
      await server.close();
    }
    expect(await sessions()).toEqual(['idle session']);
  });
});
