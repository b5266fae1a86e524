import { expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';
import { counterWorkflow, publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { enqueueJobs } from '../../src/jobs/index.js';
import { runTodos } from '../../src/modules/workflow-instances/index.js';
import { contextOf } from '../../src/plugins/service-context.js';
import { createJobWorker } from '../../src/workflow/engine.js';
import { nodeServices } from '../../src/workflow/node-context.js';
import { RUN_JOB } from '../../src/workflow/index.js';
import { readRun, recordSteps, RunMoved } from '../../src/workflow/run-store.js';
import { sweepTimedOutRuns } from '../../src/workflow/run-limits.js';

let now = Date.UTC(2026, 10, 25, 9, 0, 0);
const clock = () => now;

const jobsLeft = (ctx: Parameters<Parameters<typeof describeApi>[1]>[0]) => ctx.database.db.selectFrom('background_jobs').selectAll().execute();

describeApi(
  'workflow engine guarantees: one commit per move, concurrency limits, timeouts',
  (ctx) => {
    let sheet: Sheet;
    const counterSheet = async (name: string) => {
      sheet = await makeSheet(ctx, name, [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Hits', alias: 'hits', type: '2' },
        { name: 'Stage', alias: 'stage', type: '2' },
      ]);
      return sheet;
    };
    const hitsOf = async (id: string) => valueOf(await readRecord(ctx, sheet, id), sheet.field.hits);
    const freshWorker = (concurrency: number) => createJobWorker({ database: ctx.database, clock, timeZone: 'UTC', log: ctx.app.log, contextOf: (actor) => contextOf(ctx.app, actor, ctx.app.log), concurrency, pollMs: 1000, services: nodeServices(ctx.config) });

    /** A worksheet with the counter workflow published on it and one record created: its run queued. */
    const queuedCounterRun = async (name: string) => {
      await counterSheet(name);
      const { trigger, nodes } = counterWorkflow(sheet.id, { hits: sheet.field.hits, stage: sheet.field.stage });
      const workflowId = await publishDirect(ctx, trigger, nodes, now);
      const recordId = await createRecord(ctx, sheet, [{ id: 'title', value: 'A' }]);
      const [{ id: runId }] = await runsOf(ctx, workflowId);
      return { trigger, workflowId, recordId, runId };
    };

    it('refuses a commit of a run that moved on since it was read (RunMoved), writing nothing', async () => {
      const { workflowId, runId } = await queuedCounterRun('Guarded');
      const first = (await readRun(ctx.database.db, runId))!;
      const second = (await readRun(ctx.database.db, runId))!;
      const step = { nodeAlias: 'start', nodeType: 'trigger', status: 'done' as const, startedAt: now };
      await recordSteps(ctx.database.db, first, [{ step, resumes: false }], { status: 'running', cursor: 'read', state: {} }, now);
      await expect(recordSteps(ctx.database.db, second, [{ step, resumes: false }], { status: 'aborted', cursor: null, state: {} }, now)).rejects.toBeInstanceOf(RunMoved);
      const [run] = await runsOf(ctx, workflowId);
      expect([run.status, run.cursor, Number(run.revision), run.steps.length]).toEqual(['running', 'read', 1, 1]);
    });

    it('runs a run once when two jobs of it run at once: the later commit finds the run moved and reads it again', async () => {
      const { trigger, workflowId, recordId: id, runId } = await queuedCounterRun('Twice');
      // A second job of the same run, as a duplicated wake-up would make; two workers take both at once.
      await enqueueJobs(ctx.database.db, [{ kind: RUN_JOB, payload: { runId } }], now);
      await freshWorker(2).runUntilIdle();
      expect(await hitsOf(id)).toBe('1');
      const [run] = await runsOf(ctx, workflowId);
      expect(run.status).toBe('passed');
      expect(run.steps.map((s) => s.node_alias)).toEqual([trigger.alias, 'read', 'bump', 'finish']);
      // Neither job failed an attempt, and none is left.
      expect(await jobsLeft(ctx)).toEqual([]);
    });

    it('goes on with a run stopped between steps when a fresh worker takes it over, as after a restart', async () => {
      const { trigger, workflowId, recordId: id, runId } = await queuedCounterRun('Resumed');
      // As a worker that died after the trigger's step leaves it: running, next at a writing step.
      const run = (await readRun(ctx.database.db, runId))!;
      const started = { nodeAlias: trigger.alias, nodeType: 'trigger', status: 'done' as const, startedAt: now };
      const read = { nodeAlias: 'read', nodeType: 'get_single', status: 'done' as const, startedAt: now, output: { found: true, rowId: id, fields: { [sheet.field.hits]: '' } } };
      const state = { [trigger.alias]: { worksheetId: sheet.id, rowId: id, fields: {} }, read: { found: true, rowId: id, fields: { [sheet.field.hits]: '' } } };
      await recordSteps(ctx.database.db, run, [{ step: started, resumes: false }, { step: read, resumes: false }], { status: 'running', cursor: 'bump', state }, now);
      expect(await freshWorker(1).runUntilIdle()).toBe(1);
      expect(await hitsOf(id)).toBe('1');
      const [done] = await runsOf(ctx, workflowId);
      expect([done.status, done.steps.map((s) => s.node_alias)]).toEqual(['passed', [trigger.alias, 'read', 'bump', 'finish']]);
    });

    it('keeps a run queued while its workflow has maxConcurrentRuns running, and starts it once one ends', async () => {
      await counterSheet('Limited');
      const { trigger, nodes } = counterWorkflow(sheet.id, { hits: sheet.field.hits, stage: sheet.field.stage });
      const workflowId = await publishDirect(ctx, trigger, nodes, now, { limits: { maxConcurrentRuns: 1 } });
      const busy = await createRecord(ctx, sheet, [{ id: 'title', value: 'busy' }]);
      const waiting = await createRecord(ctx, sheet, [{ id: 'title', value: 'next' }]);
      const [busyRun] = await runsOf(ctx, workflowId);
      // The first run is running elsewhere (another process holds it).
      await ctx.database.db.updateTable('workflow_runs').set({ status: 'running' }).where('id', '=', busyRun.id).execute();
      await ctx.database.db.deleteFrom('background_jobs').where('payload', 'like', `%${busyRun.id}%`).execute();
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const held = (await runsOf(ctx, workflowId)).find((r) => r.row_id === waiting)!;
      expect([held.status, held.steps.length]).toEqual(['queued', 0]);
      const [job] = await jobsLeft(ctx);
      // Tried again about a second later, not counted as a failed attempt.
      expect([job.status, Number(job.attempts), job.last_error]).toEqual(['queued', 0, null]);
      expect(Number(job.run_at) - now).toBeGreaterThanOrEqual(750);
      expect(Number(job.run_at) - now).toBeLessThanOrEqual(1250);
      now += 1250;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect((await runsOf(ctx, workflowId)).find((r) => r.row_id === waiting)!.status).toBe('queued');
      await ctx.database.db.updateTable('workflow_runs').set({ status: 'passed' }).where('id', '=', busyRun.id).execute();
      now += 1250;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect(await hitsOf(waiting)).toBe('1');
      expect(await hitsOf(busy)).toBe('');
      expect(await jobsLeft(ctx)).toEqual([]);
    });

    it('sets a run\'s timeout when it starts, and the sweep aborts a run past it once, with the reason', async () => {
      await counterSheet('Timed');
      const { trigger, nodes } = counterWorkflow(sheet.id, { hits: sheet.field.hits, stage: sheet.field.stage });
      const workflowId = await publishDirect(ctx, trigger, nodes, now, { limits: { timeoutSeconds: 600 } });
      const done = await createRecord(ctx, sheet, [{ id: 'title', value: 'quick' }]);
      await ctx.app.jobs.runUntilIdle();
      const [quick] = await runsOf(ctx, workflowId);
      expect([quick.row_id, quick.status, Number(quick.timeout_at)]).toEqual([done, 'passed', Number(quick.started_at) + 600_000]);
      // A run waiting (on a to-do, say) since its start.
      const stuck = await createRecord(ctx, sheet, [{ id: 'title', value: 'stuck' }]);
      const run = (await runsOf(ctx, workflowId)).find((r) => r.row_id === stuck)!;
      await ctx.database.db.updateTable('workflow_runs').set({ status: 'waiting', timeout_at: Number(run.started_at) + 600_000 }).where('id', '=', run.id).execute();
      expect(await sweepTimedOutRuns(ctx.database.db, { dialect: ctx.database.dialect, runTodos }, now + 599_999)).toBe(0);
      expect(await sweepTimedOutRuns(ctx.database.db, { dialect: ctx.database.dialect, runTodos }, now + 600_000)).toBe(1);
      expect(await sweepTimedOutRuns(ctx.database.db, { dialect: ctx.database.dialect, runTodos }, now + 700_000)).toBe(0);
      const aborted = (await runsOf(ctx, workflowId)).find((r) => r.row_id === stuck)!;
      expect([aborted.status, aborted.error, Number(aborted.ended_at)]).toEqual(['aborted', 'aborted: the run did not end within its timeout of 600 s', now + 600_000]);
      // Its job, when it comes, finds it ended and drops it.
      await ctx.app.jobs.runUntilIdle();
      expect(await hitsOf(stuck)).toBe('');
      expect(await jobsLeft(ctx)).toEqual([]);
    });
  },
  { WORKERS: '0' },
  { clock, sweeps: false },
);
