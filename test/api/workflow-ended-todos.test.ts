import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { approveStep, batch, block, expenseSheet, markStatus, START, storedItems, user } from '../helpers/approval-fixtures.js';
import { giveRole, personWithToken, type TokenPerson } from '../helpers/people.js';
import type { Sheet } from '../helpers/record-fixtures.js';
import { publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { enqueueJobs } from '../../src/jobs/index.js';
import { runTodos } from '../../src/modules/workflow-instances/index.js';
import { sweepTimedOutRuns } from '../../src/workflow/run-limits.js';
import { RUN_JOB, TriggerType } from '../../src/workflow/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);

/**
 * A run ended anywhere but by its own steps settling (the timeout sweep, a job giving up, a step
 * failing) closes its pending to-dos in the transaction that ends it, as terminate and revoke do:
 * nobody is left with a to-do of an instance that has ended, and the record shows the end.
 */
describeApi(
  'runs that end from outside close their pending to-dos',
  (ctx) => {
    let ann: TokenPerson; // the initiator
    let ben: TokenPerson;
    let cat: TokenPerson;
    let sheet: Sheet;

    beforeAll(async () => {
      [ann, ben, cat] = await Promise.all(['Ann', 'Ben', 'Cat'].map((name) => personWithToken(ctx, name, NOW)));
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [ann.id]);
      sheet = await expenseSheet(ctx, 'Expenses ended');
    });

    /** A flow on the sheet waiting on Ben and Cat (all) with `limits`, and one run of it waiting: its id and record. */
    const waitingRun = async (title: string, limits: { timeoutSeconds?: number } = {}) => {
      const workflowId = await publishDirect(ctx, { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } }, [block(), approveStep('both', { approvers: [user(ben), user(cat)], mode: 'all' }), markStatus(sheet, 'approved')], NOW, { limits });
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: title }] }, ann.headers);
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const [run] = await runsOf(ctx, workflowId);
      expect(run.status).toBe('waiting');
      expect((await storedItems(ctx, run.id)).map((i) => i.status)).toEqual([0, 0]);
      return { runId: run.id, rowId: created.body.data.id, workflowId };
    };

    /** What the run, its to-dos and its record show once it has ended. */
    const endOf = async (runId: string, rowId: string) => {
      const run = await ctx.database.db.selectFrom('workflow_runs').select(['status', 'error']).where('id', '=', runId).executeTakeFirstOrThrow();
      const items = (await storedItems(ctx, runId)).map((i) => [i.assignee_id === ben.id ? 'Ben' : 'Cat', i.status, i.action]).sort();
      const row = (await ctx.call<Record<string, unknown>>('GET', `/v3/app/worksheets/${sheet.id}/rows/${rowId}?useFieldIdAsKey=true&includeSystemFields=true`)).body.data;
      // Cat has nothing left to decide.
      const late = await batch(ctx, cat, { action: 'approve', items: [{ id: runId, opinion: 'late' }] });
      return { run, items, processStatus: row._processStatus, assignees: row._nodeAssignees, late: late.data.fail.map((f) => f.error_code) };
    };
    const closed = () => [
      ['Ben', 5, 'none'],
      ['Cat', 5, 'none'],
    ];

    it('the timeout sweep aborts a waiting run and closes its to-dos', async () => {
      const { runId, rowId } = await waitingRun('Timed out', { timeoutSeconds: 600 });
      expect(await sweepTimedOutRuns(ctx.database.db, { dialect: ctx.database.dialect, runTodos }, NOW + 600_000)).toBe(1);
      expect(await endOf(runId, rowId)).toEqual({
        run: { status: 'aborted', error: 'aborted: the run did not end within its timeout of 600 s' },
        items: closed(),
        processStatus: 'abort',
        assignees: [],
        late: [10007],
      });
    });

    it('a job that gives up fails the run and closes its to-dos', async () => {
      const { runId, rowId } = await waitingRun('Given up');
      // A job of the run whose only attempt's worker died holding it: its lease has run out.
      const [jobId] = await enqueueJobs(ctx.database.db, [{ kind: RUN_JOB, payload: { runId }, maxAttempts: 1 }], NOW);
      await ctx.database.db.updateTable('background_jobs').set({ status: 'running', attempts: 1, locked_by: 'a-dead-worker', run_at: NOW - 1 }).where('id', '=', jobId).execute();
      await ctx.app.jobs.runUntilIdle();
      expect(await endOf(runId, rowId)).toEqual({
        run: { status: 'failed', error: 'gave up after 1 attempts: gave up after 1 attempts whose workers stopped before finishing' },
        items: closed(),
        processStatus: 'abort',
        assignees: [],
        late: [10007],
      });
    });

    it('a waiting step that fails when woken fails the run and closes the to-dos it left open', async () => {
      const { runId, rowId } = await waitingRun('Failed step');
      const run = await ctx.database.db.selectFrom('workflow_runs').select(['cursor', 'step_count']).where('id', '=', runId).executeTakeFirstOrThrow();
      // A signal the step cannot understand (as a bug elsewhere would send): its node throws.
      await enqueueJobs(ctx.database.db, [{ kind: RUN_JOB, payload: { runId, signal: { nodeAlias: run.cursor, seq: Number(run.step_count), data: { action: 'shrug' } } } }], NOW);
      await ctx.app.jobs.runUntilIdle();
      expect(await endOf(runId, rowId)).toEqual({
        run: { status: 'failed', error: 'both: approve: unknown signal "shrug"' },
        items: closed(),
        processStatus: 'abort',
        assignees: [],
        late: [10007],
      });
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW },
);
