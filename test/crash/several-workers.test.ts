import { afterAll, beforeAll, expect, it } from 'vitest';
import { Api, authHeaders } from '../../bench/api.js';
import { runSetup } from '../../bench/server-process.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, killAllServers, spawnServer, waitForOutput, waitUntilServing, type ServerProcess } from '../helpers/processes.js';
import { checkExactlyOnce, createCounterSheet, waitForRunsToEnd } from './exactly-once.js';

/**
 * Several processes, one database: an API server that runs no jobs (WORKERS=0) takes
 * record creates, each triggering the counter workflow, while three `tabularium worker` processes
 * (4 jobs at once each) claim and run the runs. Every run's steps must run exactly once: one run
 * per record, passed, its four steps once each, its counter bumped once, no job left.
 * On SQLite the processes take turns with the write lock (`db/dialect/sqlite-turns.ts`): with
 * Kysely's deferred `begin` this found over a thousand steps run twice or never.
 */

const RECORDS = 600;
const BATCH = 50;

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describeEachEngine('three worker processes on one database run each step exactly once', (engine) => {
  let database: TestDatabase | undefined;
  let handle: Database | undefined;
  afterAll(async () => {
    await killAllServers();
    await handle?.close();
    await database?.drop();
  });

  it(`runs ${RECORDS} triggered runs across three workers, each step once`, async () => {
    database = await engine.create();
    const setup = await runSetup(database.url);
    const headers = authHeaders(setup);
    handle = openDatabase(database.url);
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '0' };
    const api: ServerProcess = await spawnServer(['dist/main.js'], { ...env, WORKERS: '0' });
    await waitUntilServing(api, 30_000);
    const sheet = await createCounterSheet(new Api(api.url, headers), handle.db, setup.app.appId, 'Three workers');

    const workers = await Promise.all([1, 2, 3].map(() => spawnServer(['bin/tabularium.js', 'worker'], { ...env, LOG_LEVEL: 'debug', WORKERS: '4', WORKER_POLL_MS: '20' })));
    await Promise.all(workers.map((worker) => waitForOutput(worker, /worker runs 4 background jobs at once/, 30_000)));

    // The records come in while the workers run, in batches from two clients.
    const client = new Api(api.url, headers);
    const created: string[] = [];
    const send = async (from: number) => {
      for (let i = from; i < RECORDS / BATCH; i += 2) {
        const rows = Array.from({ length: BATCH }, (_, n) => ({ fields: [{ id: sheet.field.title, value: `r${i * BATCH + n}` }] }));
        created.push(...(await client.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).rowIds);
      }
    };
    await Promise.all([send(0), send(1)]);
    expect(created).toHaveLength(RECORDS);

    await waitForRunsToEnd(handle.db, sheet, 180_000, () => `\n${workers.map((w) => w.output().slice(-1500)).join('\n---\n')}`);
    const check = await checkExactlyOnce(handle.db, sheet, created);
    expect(check.violations).toEqual([]);
    expect([check.records, check.runs]).toEqual([RECORDS, RECORDS]);
    // Each worker took its share (the API process runs no jobs at all).
    for (const worker of workers) expect(worker.output()).toMatch(/claimed background jobs/);
    for (const worker of workers) expect(await worker.stop('SIGTERM')).toBe(0);
    expect(await api.stop('SIGTERM')).toBe(0);
  }, 300_000);
});
