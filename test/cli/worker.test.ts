import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { enqueueJobs } from '../../src/jobs/index.js';
import { MAINTENANCE_SWEEP_JOB } from '../../src/jobs/maintenance-sweep.js';
import { RECYCLE_BIN_JOB } from '../../src/modules/records/index.js';
import { SESSION_IDLE_MS } from '../../src/modules/sign-in/index.js';
import { RUN_JOB, TIMEOUT_SWEEP_JOB } from '../../src/workflow/index.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';

beforeAll(ensureBuilt, 180_000);

describeEachEngine('tabularium worker', (engine) => {
  let testDatabase: TestDatabase;
  afterAll(async () => {
    await testDatabase?.drop();
  });

  it('refuses WORKERS=0, naming the setting', async () => {
    testDatabase = await engine.create();
    const result = await runCli(['worker'], { DATABASE_URL: testDatabase.url, WORKERS: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('tabularium: Invalid configuration: WORKERS must be at least 1 for tabularium worker, got 0\n');
  });

  it('--once runs the jobs that are due, the maintenance sweep among them, then exits', async () => {
    expect((await runCli(['setup', '--json'], { DATABASE_URL: testDatabase.url })).code).toBe(0);
    const database = openDatabase(testDatabase.url);
    try {
      // A run job whose run is gone: the worker drops it (nothing to run), which ends the job.
      await enqueueJobs(database.db, [{ kind: RUN_JOB, payload: { runId: 'no-such-run' } }], Date.now());
      const owner = await database.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
      const longAgo = Date.now() - SESSION_IDLE_MS - 60_000;
      await database.db.insertInto('sessions').values({ id: 'idle session', account_id: owner.id, data: '{}', created_at: longAgo, seen_at: longAgo }).execute();
      const started = Date.now();
      const result = await runCli(['worker', '--once'], { DATABASE_URL: testDatabase.url, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('maintenance sweep removed 1 expired rows');
      expect(result.stdout).toContain('ran 2 background jobs; none is due now');
      expect(await database.db.selectFrom('sessions').select('id').execute()).toEqual([]);
      // What is left: the sweeps, each planned once; the maintenance sweep's next an interval (60 minutes) on.
      const left = await database.db.selectFrom('background_jobs').select(['id', 'status', 'run_at']).orderBy('id').execute();
      expect(left.map((job) => [job.id, job.status])).toEqual([
        [MAINTENANCE_SWEEP_JOB, 'queued'],
        [RECYCLE_BIN_JOB, 'queued'],
        [TIMEOUT_SWEEP_JOB, 'queued'],
      ]);
      expect(Number(left[0].run_at)).toBeGreaterThanOrEqual(started + 60 * 60_000);
    } finally {
      await database.close();
    }
  });
});
