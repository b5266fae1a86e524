import { afterAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { JobWorker, planRecurringJobs, recurringJobHandler, type RecurringJob } from '../../src/jobs/index.js';
import { MAINTENANCE_SWEEP_JOB } from '../../src/jobs/maintenance-sweep.js';
import { RECYCLE_BIN_JOB } from '../../src/modules/records/index.js';
import { SESSION_IDLE_MS } from '../../src/modules/sign-in/index.js';
import { TIMEOUT_SWEEP_JOB } from '../../src/workflow/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { SWEEP_JOBS } from '../helpers/sweep-jobs.js';
import { createRecord, makeSheet } from '../helpers/record-fixtures.js';
import { counterWorkflow, publishDirect, runsOf } from '../helpers/workflow-fixtures.js';

/**
 * The periodic sweeps as recurring jobs of the durable queue, on the test's clock: one pending job
 * per sweep however many processes start on the database, run by `app.jobs` (this app has
 * WORKERS=0, so only the test drives it), each run queueing the next.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 10, 25, 9, 0, 0);
let now = START;

/** The sweep jobs as stored, by id. */
async function sweepJobs(ctx: ApiContext) {
  const rows = await ctx.database.db.selectFrom('background_jobs').select(['id', 'kind', 'status', 'run_at', 'attempts']).where('id', 'in', SWEEP_JOBS).orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, kind: row.kind, status: row.status, runAt: Number(row.run_at), attempts: Number(row.attempts) }));
}

/** Another process starting on the test's database: its own connection and app, with `env` added to the settings. */
async function bootAnother(ctx: ApiContext, env: Record<string, string> = {}): Promise<{ app: FastifyInstance; database: Database; close(): Promise<void> }> {
  const database = openDatabase(ctx.config.databaseUrl);
  const config = loadConfig({ DATABASE_URL: ctx.config.databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '0', FILES_DIR: ctx.config.filesDir, WORKERS: '0', ...env });
  const app = await buildApp({ config, database, logger: false, clock: () => now });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

describeApi(
  'sweeps as recurring jobs',
  (ctx) => {
    const planned = (maintenanceAt: number, othersAt: number) => [
      { id: MAINTENANCE_SWEEP_JOB, kind: MAINTENANCE_SWEEP_JOB, status: 'queued', runAt: maintenanceAt, attempts: 0 },
      { id: RECYCLE_BIN_JOB, kind: RECYCLE_BIN_JOB, status: 'queued', runAt: othersAt, attempts: 0 },
      { id: TIMEOUT_SWEEP_JOB, kind: TIMEOUT_SWEEP_JOB, status: 'queued', runAt: othersAt, attempts: 0 },
    ];

    // The next engine's app starts at START again.
    afterAll(() => {
      now = START;
    });

    it('plans one job per sweep however many processes start, at once or one after another', async () => {
      // The app of the harness started at START: the maintenance sweep is due at once, the others a minute later.
      expect(await sweepJobs(ctx)).toEqual(planned(START, START + MINUTE));
      now = START + 5 * MINUTE;
      const second = await bootAnother(ctx);
      const [third, fourth] = await Promise.all([bootAnother(ctx), bootAnother(ctx)]);
      await Promise.all([second.close(), third.close(), fourth.close()]);
      expect(await sweepJobs(ctx)).toEqual(planned(START, START + MINUTE));
    });

    it('runs a sweep when it is due and queues the next in the same commit, one job per sweep throughout', async () => {
      now = START;
      const owner = ctx.setup.owner.accountId;
      await ctx.database.db.insertInto('sessions').values({ id: 'idle', account_id: owner, data: '{}', created_at: now - DAY, seen_at: now - SESSION_IDLE_MS }).execute();
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect(await ctx.database.db.selectFrom('sessions').select('id').where('id', '=', 'idle').execute()).toEqual([]);
      expect(await sweepJobs(ctx)).toEqual(planned(START + HOUR, START + MINUTE));
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);

      now = START + MINUTE;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      const afterMinute = await sweepJobs(ctx);
      expect(afterMinute.map((job) => [job.id, job.runAt])).toEqual([
        [MAINTENANCE_SWEEP_JOB, START + HOUR],
        [RECYCLE_BIN_JOB, START + MINUTE + HOUR],
        [TIMEOUT_SWEEP_JOB, START + 2 * MINUTE],
      ]);

      // A later start of another process changes none of them.
      const again = await bootAnother(ctx);
      await again.close();
      expect(await sweepJobs(ctx)).toEqual(afterMinute);
    });

    it('aborts a run past its timeout through the timeout sweep job', async () => {
      now = START + 2 * MINUTE;
      const sheet = await makeSheet(ctx, 'Timed', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Hits', alias: 'hits', type: '2' },
        { name: 'Stage', alias: 'stage', type: '2' },
      ]);
      const { trigger, nodes } = counterWorkflow(sheet.id, { hits: sheet.field.hits, stage: sheet.field.stage });
      const workflowId = await publishDirect(ctx, trigger, nodes, now, { limits: { timeoutSeconds: 60 } });
      const stuck = await createRecord(ctx, sheet, [{ id: 'title', value: 'stuck' }]);
      const [run] = await runsOf(ctx, workflowId);
      // Waiting (on a to-do, say) since its start; its own job is gone.
      await ctx.database.db.updateTable('workflow_runs').set({ status: 'waiting', timeout_at: now + MINUTE }).where('id', '=', run.id).execute();
      await ctx.database.db.deleteFrom('background_jobs').where('kind', '=', 'workflow.run').execute();
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1); // the timeout sweep due now: nothing is past its timeout yet
      expect((await runsOf(ctx, workflowId))[0].status).toBe('waiting');
      now += MINUTE;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const [aborted] = await runsOf(ctx, workflowId);
      expect([aborted.row_id, aborted.status, aborted.error, Number(aborted.ended_at)]).toEqual([stuck, 'aborted', 'aborted: the run did not end within its timeout of 60 s', now]);
      expect((await sweepJobs(ctx)).find((job) => job.id === TIMEOUT_SWEEP_JOB)?.runAt).toBe(now + MINUTE);
    });

    it('empties the recycle bin through its job once RECYCLE_BIN_DAYS have passed', async () => {
      now = START + 4 * MINUTE;
      const sheet = await makeSheet(ctx, 'Bin', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      const gone = await createRecord(ctx, sheet, [{ id: 'title', value: 'gone' }]);
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${gone}`)).body.error_msg).toBe('');
      const inBin = async () => (await ctx.call<{ rows: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { recycleBin: true })).body.data.rows.map((row) => row.id);
      expect(await inBin()).toEqual([gone]);
      now += 60 * DAY - 1;
      await ctx.app.jobs.runUntilIdle();
      expect(await inBin()).toEqual([gone]);
      now += HOUR + 1;
      await ctx.app.jobs.runUntilIdle();
      expect(await inBin()).toEqual([]);
      expect((await sweepJobs(ctx)).find((job) => job.id === RECYCLE_BIN_JOB)).toMatchObject({ status: 'queued', runAt: now + HOUR, attempts: 0 });
    });

    it('drops the maintenance job when a process starts with SWEEP_INTERVAL_MINUTES=0, and plans it again at the next start with an interval', async () => {
      const off = await bootAnother(ctx, { SWEEP_INTERVAL_MINUTES: '0' });
      await off.close();
      expect((await sweepJobs(ctx)).map((job) => job.id)).toEqual([RECYCLE_BIN_JOB, TIMEOUT_SWEEP_JOB]);
      const on = await bootAnother(ctx, { SWEEP_INTERVAL_MINUTES: '15' });
      await on.close();
      expect((await sweepJobs(ctx)).find((job) => job.id === MAINTENANCE_SWEEP_JOB)).toMatchObject({ status: 'queued', runAt: now, attempts: 0 });
    });

    it('puts a sweep that failed every attempt back at its interval, its error kept; a start revives one left failed', async () => {
      const failing: RecurringJob = {
        kind: 'sweep.test-failing',
        everyMs: HOUR,
        firstAfterMs: 0,
        run: async () => {
          throw new Error('the sweep broke');
        },
      };
      const worker = new JobWorker({ db: ctx.database.db, dialect: ctx.database.dialect, handlers: [recurringJobHandler(failing, ctx.database.db, () => now)], clock: () => now, log: ctx.app.log, concurrency: 1, pollMs: 1000, leaseMs: MINUTE });
      const stored = async () => {
        const row = await ctx.database.db.selectFrom('background_jobs').select(['status', 'run_at', 'attempts', 'last_error']).where('id', '=', failing.kind).executeTakeFirstOrThrow();
        return [row.status, Number(row.run_at) - now, Number(row.attempts), row.last_error];
      };
      await planRecurringJobs(ctx.database.db, [failing], now);
      for (let attempt = 1; attempt <= 4; attempt++) {
        expect(await worker.runUntilIdle()).toBe(1);
        expect(await stored()).toEqual(['queued', 1000 * 2 ** (attempt - 1), attempt, 'the sweep broke']);
        now += 1000 * 2 ** (attempt - 1);
      }
      expect(await worker.runUntilIdle()).toBe(1);
      expect(await stored()).toEqual(['queued', HOUR, 0, 'the sweep broke']);

      await ctx.database.db.updateTable('background_jobs').set({ status: 'failed' }).where('id', '=', failing.kind).execute();
      await planRecurringJobs(ctx.database.db, [failing], now);
      expect(await stored()).toEqual(['queued', 0, 0, 'the sweep broke']);
      await ctx.database.db.deleteFrom('background_jobs').where('id', '=', failing.kind).execute();
    });
  },
  { WORKERS: '0' },
  { clock: () => now },
);
