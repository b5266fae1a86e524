import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { enqueueJobs } from '../../src/jobs/index.js';
import { RUN_JOB } from '../../src/workflow/index.js';
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

  it('--once runs the jobs that are due, then exits', async () => {
    expect((await runCli(['setup', '--json'], { DATABASE_URL: testDatabase.url })).code).toBe(0);
    const database = openDatabase(testDatabase.url);
    try {
      // A run job whose run is gone: the worker drops it (nothing to run), which ends the job.
      await enqueueJobs(database.db, [{ kind: RUN_JOB, payload: { runId: 'no-such-run' } }], Date.now());
      const result = await runCli(['worker', '--once'], { DATABASE_URL: testDatabase.url, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('ran 1 background jobs; none is due now');
      expect(await database.db.selectFrom('background_jobs').select('id').execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
