import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { approveStep, BLOCK, expenseSheet, instanceAction, START, storedItems, user } from '../helpers/approval-fixtures.js';
import { personWithToken, type TokenPerson } from '../helpers/people.js';
import { createRecord, makeSheet, readRecord, valueOf } from '../helpers/record-fixtures.js';
import { counterWorkflow, node, publishDirect, runsOf, startHookCall } from '../helpers/workflow-fixtures.js';
import { enqueueJobs } from '../../src/jobs/index.js';
import { contextOf } from '../../src/plugins/service-context.js';
import { createJobWorker, runnerDeps, type EngineOptions } from '../../src/workflow/engine.js';
import { onRunEnded, RUN_JOB, TriggerType } from '../../src/workflow/index.js';
import { nodeServices } from '../../src/workflow/node-context.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);

/** An API-callable process (trigger type 17) whose run waits on an approval by `approver`. */
const approvalProcess = (approver: TokenPerson) => ({
  trigger: { type: TriggerType.api, alias: START, worksheetId: null, config: { inputs: [], outputs: [] } },
  nodes: [node(BLOCK, 'approval_block', {}, START), approveStep('ok_by', { approvers: [user(approver)] })],
});

/**
 * How a run ended by a person reaches whoever waits for it: a parent run waiting on it as a
 * sub-process goes on, and a hook call waiting for it answers at once.
 */
describeApi(
  'terminating a run tells those waiting for it',
  (ctx) => {
    let ben: TokenPerson;

    beforeAll(async () => {
      ben = await personWithToken(ctx, 'Ben', NOW);
    });

    it('a terminated sub-process run signals its waiting parent, which goes on with the status aborted', async () => {
      const { trigger, nodes } = approvalProcess(ben);
      const child = await publishDirect(ctx, trigger, nodes, NOW);
      const sheet = await expenseSheet(ctx, 'Parents');
      const parent = await publishDirect(
        ctx,
        { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } },
        [
          node('sub', 'sub_process', { workflowId: child, wait: true }, START),
          node('mark', 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.status, value: { kind: 'template', value: 'child $sub-status$' } }] }, 'sub'),
        ],
        NOW,
      );
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'Needs a child' }]);
      await ctx.app.jobs.runUntilIdle();
      const [childRun] = await runsOf(ctx, child);
      expect([childRun.status, (await runsOf(ctx, parent))[0].status]).toEqual(['waiting', 'waiting']);

      expect((await instanceAction(ctx, null, childRun.id, 'terminate')).error_msg).toBe('');
      expect((await storedItems(ctx, childRun.id)).map((i) => [i.status, i.action])).toEqual([[5, 'none']]);
      // The parent's wake-up is queued with the termination; it goes on when it runs.
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const [parentRun] = await runsOf(ctx, parent);
      expect(parentRun.status).toBe('passed');
      expect(JSON.parse(parentRun.steps.find((s) => s.node_alias === 'sub')!.output!)).toMatchObject({ runId: childRun.id, status: 'aborted', exit: 'next' });
      expect(valueOf(await readRecord(ctx, sheet, rowId), sheet.field.status)).toBe('child aborted');
    });

    it('a hook call waiting for a run that is terminated is told at once and answers its end', async () => {
      const { trigger, nodes } = approvalProcess(ben);
      const process = await publishDirect(ctx, trigger, nodes, NOW);
      const { answer } = await startHookCall(ctx, process, {});
      const [run] = await runsOf(ctx, process);
      expect(run.status).toBe('waiting');
      const told: string[] = [];
      const off = onRunEnded(run.id, () => told.push(run.id));
      expect((await instanceAction(ctx, null, run.id, 'terminate')).error_msg).toBe('');
      off();
      // Announced when the termination committed, before its answer: the call needs no polling.
      expect(told).toEqual([run.id]);
      const answered = await answer;
      expect([answered.status, answered.body.error_code, answered.body.error_msg]).toEqual([500, 99999, expect.stringContaining(`run ${run.id} of process "Test flow" ended aborted: terminated by user-api`)]);
    });
  },
  // Long enough that the hook call cannot give up before the termination.
  { WORKERS: '0', WORKFLOW_HOOK_WAIT_MS: '120000' },
  { clock: () => NOW },
);

/**
 * A job working on a run whose run another job moved on (`RunMoved`) or ended (`RunEnded`) since it
 * read it: its step's transaction rolls back, so that its record writes do not land; a moved run is
 * read again and gone on with, an ended one's job is done.
 */
describeApi(
  'a step whose run another job moved or ended meanwhile rolls back',
  (ctx) => {
    /** What the next job of the interfering worker does after it read its run, before it runs a step. */
    let meanwhile: (() => Promise<void>) | null = null;
    /** How many jobs the other worker ran meanwhile (checked by the tests: a failure inside a job is the worker's to catch). */
    let ranMeanwhile = 0;

    /** A worker whose next job, once it has read its run, lets `meanwhile` act first. */
    const interferingWorker = () => {
      const options: EngineOptions = { database: ctx.database, clock: () => NOW, timeZone: 'UTC', log: ctx.app.log, contextOf: (actor) => contextOf(ctx.app, actor, ctx.app.log), concurrency: 1, pollMs: 60_000, services: nodeServices(ctx.config) };
      const deps = runnerDeps(options);
      // The runner asks for the run's organization as it starts walking: after it read the run.
      const organizationOf = async (appId: string) => {
        const act = meanwhile;
        meanwhile = null;
        await act?.();
        return deps.organizationOf(appId);
      };
      return createJobWorker(options, { ...deps, organizationOf });
    };

    /** The app's own worker runs a second job of the run: another job, while the first one holds its own. */
    const anotherJobRuns = (runId: string) => async () => {
      await enqueueJobs(ctx.database.db, [{ kind: RUN_JOB, payload: { runId } }], NOW);
      ranMeanwhile = await ctx.app.jobs.runUntilIdle();
    };

    /** A worksheet of counters, one per test: no other test's workflow is triggered on it. */
    const counters = (name: string) =>
      makeSheet(ctx, name, [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Hits', alias: 'hits', type: '2' },
        { name: 'Stage', alias: 'stage', type: '2' },
      ]);

    it('RunEnded: another job ran the run to its end; the late step\'s write is rolled back and its job ends', async () => {
      const sheet = await counters('Counters ended');
      const { trigger, nodes } = counterWorkflow(sheet.id, { hits: sheet.field.hits, stage: sheet.field.stage });
      const workflowId = await publishDirect(ctx, trigger, nodes, NOW);
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'Ended' }]);
      const [{ id: runId }] = await runsOf(ctx, workflowId);
      meanwhile = anotherJobRuns(runId);
      expect(await interferingWorker().runUntilIdle()).toBe(1);
      expect(ranMeanwhile).toBe(1);
      // The late job appended "1" to what it read ("1"), then found the run ended: "11" never landed.
      expect(valueOf(await readRecord(ctx, sheet, rowId), sheet.field.hits)).toBe('1');
      const [run] = await runsOf(ctx, workflowId);
      expect([run.status, run.steps.map((s) => s.node_alias)]).toEqual(['passed', [trigger.alias, 'read', 'bump', 'finish']]);
      // Its job is done, not failed nor tried again.
      expect(await ctx.database.db.selectFrom('background_jobs').selectAll().execute()).toEqual([]);
    });

    it('RunMoved: another job moved the run on; the late step\'s write is rolled back and the run is read again', async () => {
      const sheet = await counters('Counters moved');
      const workflowId = await publishDirect(
        ctx,
        { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } },
        [
          node('bump', 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.hits, value: { kind: 'template', value: `1$${START}-${sheet.field.hits}$` } }] }, START),
          node('pause', 'delay', { for: { days: 1 } }, 'bump'),
        ],
        NOW,
      );
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'Moved' }]);
      const [{ id: runId }] = await runsOf(ctx, workflowId);
      meanwhile = anotherJobRuns(runId);
      // The late job's first try finds the run moved (waiting now); read again, there is nothing left for it to do.
      expect(await interferingWorker().runUntilIdle()).toBe(2);
      expect(ranMeanwhile).toBe(1);
      expect(valueOf(await readRecord(ctx, sheet, rowId), sheet.field.hits)).toBe('1');
      const [run] = await runsOf(ctx, workflowId);
      expect([run.status, run.steps.map((s) => [s.node_alias, s.status])]).toEqual([
        'waiting',
        [
          [START, 'done'],
          ['bump', 'done'],
          ['pause', 'waiting'],
        ],
      ]);
      // One timer: the late job's was rolled back with its step.
      const jobs = await ctx.database.db.selectFrom('background_jobs').select(['payload', 'attempts', 'status']).execute();
      expect(jobs.map((j) => [JSON.parse(j.payload) as unknown, Number(j.attempts), j.status])).toEqual([[{ runId, timer: { nodeAlias: 'pause', seq: 3 } }, 0, 'queued']]);
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW, sweeps: false },
);
