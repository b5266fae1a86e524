import { expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';
import { publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { inTransaction } from '../../src/db/transaction.js';
import { enqueueJobs } from '../../src/jobs/index.js';
import { contextOf } from '../../src/plugins/service-context.js';
import { createJobWorker } from '../../src/workflow/engine.js';
import { nodeServices } from '../../src/workflow/node-context.js';
import { DATE_SWEEP_MS, planTimeTrigger, reconcileTimeTriggers, TriggerType } from '../../src/workflow/index.js';

const START = 'start_t1';
const at = (iso: string) => Date.parse(iso);

/** The service clock of these tests: fixed, moved by the tests. */
const clock = { now: 0 };

async function plan(ctx: ApiContext, workflowId: string): Promise<void> {
  await inTransaction(ctx.database.db, (trx) => planTimeTrigger(trx, workflowId, clock.now, ctx.config.timeZone));
}

async function jobsOf(ctx: ApiContext, kind: string) {
  const rows = await ctx.database.db.selectFrom('background_jobs').select(['id', 'payload', 'run_at', 'status']).where('kind', '=', kind).orderBy('run_at').execute();
  return rows.map((r) => ({ ...r, run_at: Number(r.run_at), payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

const firings = async (ctx: ApiContext, workflowId: string) => (await runsOf(ctx, workflowId)).map((r) => (JSON.parse(r.trigger) as { firedAt: string }).firedAt);

describeApi(
  'workflow schedule triggers: cron in a time zone, durable firings, exactly once',
  (ctx) => {
    let daily: string;

    it('plans a daily 09:00 in New York at its next firing', async () => {
      clock.now = at('2026-03-06T12:00:00.000Z');
      daily = await publishDirect(ctx, { type: TriggerType.schedule, alias: START, worksheetId: null, config: { cron: '0 9 * * *', timeZone: 'America/New_York' } }, [], clock.now);
      await plan(ctx, daily);
      expect((await jobsOf(ctx, 'workflow.schedule')).map((j) => [j.run_at, j.payload])).toEqual([[at('2026-03-06T14:00:00.000Z'), { workflowId: daily, fireAt: at('2026-03-06T14:00:00.000Z') }]]);
      // Not due yet: nothing fires.
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      expect(await runsOf(ctx, daily)).toEqual([]);
    });

    it('fires at 09:00 local time on each day across the change to daylight-saving time', async () => {
      for (const day of ['2026-03-06T14:00:00.000Z', '2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z']) {
        clock.now = at(day);
        await ctx.app.jobs.runUntilIdle();
      }
      expect(await firings(ctx, daily)).toEqual(['2026-03-06T14:00:00.000Z', '2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z']);
      const runs = await runsOf(ctx, daily);
      expect(runs.map((r) => [r.status, r.initiator_id, r.trigger_key])).toEqual(runs.map((r) => ['passed', 'user-workflow', `schedule:${at((JSON.parse(r.trigger) as { firedAt: string }).firedAt)}`]));
      expect((await jobsOf(ctx, 'workflow.schedule')).map((j) => j.run_at)).toEqual([at('2026-03-10T13:00:00.000Z')]);
    });

    it('fires a late firing once and plans the next from now: missed firings are not made up', async () => {
      clock.now = at('2026-03-12T20:00:00.000Z');
      await ctx.app.jobs.runUntilIdle();
      expect((await firings(ctx, daily)).slice(4)).toEqual(['2026-03-10T13:00:00.000Z']);
      expect((await jobsOf(ctx, 'workflow.schedule')).map((j) => j.run_at)).toEqual([at('2026-03-13T13:00:00.000Z')]);
    });

    it('fires each of many schedules exactly once when two workers race for the same firings', async () => {
      clock.now = at('2026-03-13T13:00:00.000Z');
      const many = [];
      for (let i = 0; i < 8; i++) {
        const id = await publishDirect(ctx, { type: TriggerType.schedule, alias: START, worksheetId: null, config: { repeat: 'hour', interval: 1, startTime: '2026-03-13 10:00', timeZone: 'America/New_York' } }, [], clock.now);
        await plan(ctx, id);
        many.push(id);
      }
      const other = createJobWorker({ database: ctx.database, clock: () => clock.now, timeZone: ctx.config.timeZone, log: ctx.app.log, contextOf: (actor) => contextOf(ctx.app, actor, ctx.app.log), concurrency: 4, pollMs: 60_000, services: nodeServices(ctx.config) });
      for (const hour of ['2026-03-13T14:00:00.000Z', '2026-03-13T15:00:00.000Z', '2026-03-13T16:00:00.000Z']) {
        clock.now = at(hour);
        const [a, b] = await Promise.all([ctx.app.jobs.runUntilIdle(), other.runUntilIdle()]);
        expect(a + b).toBeGreaterThanOrEqual(16);
      }
      for (const id of many) expect(await firings(ctx, id)).toEqual(['2026-03-13T14:00:00.000Z', '2026-03-13T15:00:00.000Z', '2026-03-13T16:00:00.000Z']);
      await other.close();
    });

    it('a job that no longer carries the schedule (replaced by a later publish) fires nothing', async () => {
      const id = await publishDirect(ctx, { type: TriggerType.schedule, alias: START, worksheetId: null, config: { cron: '*/15 * * * *', timeZone: 'UTC' } }, [], clock.now);
      await plan(ctx, id);
      const [planned] = (await jobsOf(ctx, 'workflow.schedule')).filter((j) => j.payload.workflowId === id);
      // A job of an earlier plan (a worker of another process held it while the workflow was published
      // again) is due for a firing of its own, a quarter of an hour earlier.
      const earlier = planned.run_at - 15 * 60_000;
      await enqueueJobs(ctx.database.db, [{ kind: 'workflow.schedule', payload: { workflowId: id, fireAt: earlier }, runAt: earlier }], clock.now);
      clock.now = planned.run_at;
      await ctx.app.jobs.runUntilIdle();
      expect(await firings(ctx, id)).toEqual([new Date(planned.run_at).toISOString()]);
      // One chain goes on.
      expect((await jobsOf(ctx, 'workflow.schedule')).filter((j) => j.payload.workflowId === id).map((j) => j.run_at)).toEqual([planned.run_at + 15 * 60_000]);
    });

    it('closing a workflow removes its queued firing; it fires no more', async () => {
      await ctx.database.db.updateTable('workflows').set({ status: 'closed' }).where('id', '=', daily).execute();
      await plan(ctx, daily);
      expect((await jobsOf(ctx, 'workflow.schedule')).filter((j) => j.payload.workflowId === daily)).toEqual([]);
      expect(await ctx.database.db.selectFrom('workflow_time_triggers').select('workflow_id').where('workflow_id', '=', daily).execute()).toEqual([]);
    });

    it('plans at start each published time trigger that no job carries, once', async () => {
      const hourly = await publishDirect(ctx, { type: TriggerType.schedule, alias: START, worksheetId: null, config: { cron: '0 * * * *', timeZone: 'UTC' } }, [], clock.now);
      expect(await reconcileTimeTriggers(ctx.database.db, clock.now, 'UTC')).toBe(1);
      expect(await reconcileTimeTriggers(ctx.database.db, clock.now, 'UTC')).toBe(0);
      const next = Math.floor(clock.now / 3_600_000) * 3_600_000 + 3_600_000;
      expect((await jobsOf(ctx, 'workflow.schedule')).filter((j) => j.payload.workflowId === hourly).map((j) => j.run_at)).toEqual([next]);
    });
  },
  { WORKERS: '0' },
  { clock: () => clock.now, sweeps: false },
);

const dateClock = { now: 0 };

describeApi(
  'workflow date-field triggers: a periodic sweep of one indexed range per workflow',
  (ctx) => {
    let sheet: Sheet;
    let byDay: string;
    let byInstant: string;
    const rows: Record<string, string> = {};

    const sweepNow = async (iso: string) => {
      dateClock.now = at(iso);
      await ctx.app.jobs.runUntilIdle();
    };
    const firedRows = async (workflowId: string) => (await runsOf(ctx, workflowId)).map((r) => [r.row_id, (JSON.parse(r.trigger) as { firedAt: string }).firedAt, r.status]);

    it('sets up a worksheet with a Date and a DateTime field, and two published date-field workflows', async () => {
      dateClock.now = at('2026-11-25T09:00:00.000Z');
      sheet = await makeSheet(ctx, 'Deadlines', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Due', alias: 'due', type: '15' },
        { name: 'Meeting', alias: 'meeting', type: '16' },
      ]);
      rows.a = await createRecord(ctx, sheet, [{ id: 'title', value: 'A' }, { id: 'due', value: '2026-11-27' }]);
      rows.b = await createRecord(ctx, sheet, [{ id: 'title', value: 'B' }, { id: 'due', value: '2026-11-28' }]);
      rows.c = await createRecord(ctx, sheet, [{ id: 'title', value: 'C' }, { id: 'meeting', value: '2026-11-26T10:00:00Z' }]);
      rows.old = await createRecord(ctx, sheet, [{ id: 'title', value: 'Old' }, { id: 'due', value: '2026-11-20' }]);
      // A day before the due day, at 09:00 (the server's zone, UTC here).
      byDay = await publishDirect(ctx, { type: TriggerType.dateField, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, dateFieldId: sheet.field.due, offset: { direction: 'before', amount: 1, unit: 'day' }, time: '09:00', repeat: 'none' } }, [], dateClock.now);
      // Half an hour before the meeting.
      byInstant = await publishDirect(ctx, { type: TriggerType.dateField, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, dateFieldId: sheet.field.meeting, offset: { direction: 'before', amount: 30, unit: 'minute' }, repeat: 'none' } }, [], dateClock.now);
      await inTransaction(ctx.database.db, async (trx) => {
        await planTimeTrigger(trx, byDay, dateClock.now, 'UTC');
        await planTimeTrigger(trx, byInstant, dateClock.now, 'UTC');
      });
      const sweeps = await ctx.database.db.selectFrom('background_jobs').select(['run_at']).where('kind', '=', 'workflow.date-sweep').execute();
      expect(sweeps.map((s) => Number(s.run_at))).toEqual([dateClock.now + DATE_SWEEP_MS, dateClock.now + DATE_SWEEP_MS]);
    });

    it('starts a run per record when its date, moved by the offset, has come; not for dates already past when published', async () => {
      await sweepNow('2026-11-26T08:59:00.000Z');
      expect(await firedRows(byDay)).toEqual([]);
      await sweepNow('2026-11-26T09:00:00.000Z');
      expect(await firedRows(byDay)).toEqual([[rows.a, '2026-11-26T09:00:00.000Z', 'passed']]);
      expect(await firedRows(byInstant)).toEqual([]);
      await sweepNow('2026-11-26T09:31:00.000Z');
      expect(await firedRows(byInstant)).toEqual([[rows.c, '2026-11-26T09:30:00.000Z', 'passed']]);
      expect(await firedRows(byDay)).toHaveLength(1);
    });

    it('a record whose date changes later fires at its new time, once', async () => {
      const changed = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${rows.b}`, { fields: [{ id: 'due', value: '2026-11-30' }] });
      expect(changed.body.error_msg).toBe('');
      await sweepNow('2026-11-28T10:00:00.000Z');
      expect((await firedRows(byDay)).map((r) => r[0])).toEqual([rows.a]);
      await sweepNow('2026-11-29T09:00:00.000Z');
      expect(await firedRows(byDay)).toEqual([
        [rows.a, '2026-11-26T09:00:00.000Z', 'passed'],
        [rows.b, '2026-11-29T09:00:00.000Z', 'passed'],
      ]);
    });

    it('a sweep of a window already swept (redone after a crash) starts no second run', async () => {
      await ctx.database.db.updateTable('workflow_time_triggers').set({ swept_until: at('2026-11-20T00:00:00.000Z') }).where('workflow_id', '=', byDay).execute();
      await sweepNow('2026-11-29T09:05:00.000Z');
      // The window holds the firings of A and B again (and not the old record's, a day before 20 November).
      expect(await firedRows(byDay)).toEqual([
        [rows.a, '2026-11-26T09:00:00.000Z', 'passed'],
        [rows.b, '2026-11-29T09:00:00.000Z', 'passed'],
      ]);
    });
  },
  { WORKERS: '0', TIME_ZONE: 'UTC' },
  { clock: () => dateClock.now, sweeps: false },
);
