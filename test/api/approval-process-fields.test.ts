import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { approveStep, block, decideAs, expenseSheet, instanceAction, markStatus, onlyRun, publishFlow, storedItems, user } from '../helpers/approval-fixtures.js';
import { giveRole, personWithToken, type TokenPerson } from '../helpers/people.js';
import type { Sheet } from '../helpers/record-fixtures.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** The service clock: each test moves it, so that each wait's start shows when it began. */
let now = NOW;

/**
 * Approve steps show who must act now as the record's `_nodeAssignees` (read with
 * includeSystemFields): the current approver in order, the ones still pending for any and all, the
 * initiator while the record is returned to them; with the step's start and deadline beside them.
 */
describeApi(
  'approval steps show their current assignees on the record (_nodeAssignees)',
  (ctx) => {
    let ann: TokenPerson; // the initiator
    let ben: TokenPerson;
    let cat: TokenPerson;

    beforeAll(async () => {
      now = NOW;
      [ann, ben, cat] = await Promise.all(['Ann', 'Ben', 'Cat'].map((name) => personWithToken(ctx, name, NOW)));
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [ann.id]);
    });

    /** A record created by Ann in `sheet`, its run started and waiting; the run's id and the record's id. */
    const started = async (sheet: Sheet, workflowId: string, title: string) => {
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: title }] }, ann.headers);
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      expect(run.status).toBe('waiting');
      return { runId: run.id, rowId: created.body.data.id };
    };

    /** The record's process fields as the records API gives them: assignees by account id. */
    const processOf = async (sheet: Sheet, rowId: string) => {
      const read = await ctx.call<Record<string, unknown>>('GET', `/v3/app/worksheets/${sheet.id}/rows/${rowId}?useFieldIdAsKey=true&includeSystemFields=true`);
      expect(read.body.error_msg).toBe('');
      const row = read.body.data;
      return { assignees: (row._nodeAssignees as Array<{ accountId: string }>).map((a) => a.accountId), status: row._processStatus, startedAt: row._nodeStartedAt, dueAt: row._dueAt };
    };

    /** Decides as `who`, then runs what the decision woke. */
    const decide = async (who: TokenPerson, action: string, runId: string, extra: Record<string, unknown> = {}) => {
      now += HOUR;
      await decideAs(ctx, who, action, runId, { opinion: `${action} by ${who.id}`, ...extra });
      await ctx.app.jobs.runUntilIdle();
    };

    it('in order: only the approver whose turn it is, then the next one, then nobody once approved', async () => {
      const sheet = await expenseSheet(ctx, 'Assignees in order');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('chain', { approvers: [user(cat), user(ben)], mode: 'inOrder' }), markStatus(sheet, 'approved')], NOW);
      const { runId, rowId } = await started(sheet, workflowId, 'Chair');
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [cat.id], status: 'other', startedAt: iso(now), dueAt: null });
      await decide(cat, 'approve', runId);
      // The same step goes on waiting: its start stays, the assignee moves on.
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [ben.id], status: 'other', startedAt: iso(NOW), dueAt: null });
      await decide(ben, 'approve', runId);
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [], status: 'pass', startedAt: iso(NOW), dueAt: null });
    });

    it('all: everyone pending, fewer as they approve; a return shows the initiator, a resubmit the approvers again with a new start and deadline', async () => {
      now = NOW;
      const sheet = await expenseSheet(ctx, 'Assignees all');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('both', { approvers: [user(ben), user(cat)], mode: 'all', deadline: { hours: 24, action: 'notify' } }), markStatus(sheet, 'approved')], NOW);
      const { runId, rowId } = await started(sheet, workflowId, 'Desk');
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [ben.id, cat.id], status: 'other', startedAt: iso(NOW), dueAt: iso(NOW + 24 * HOUR) });
      await decide(ben, 'approve', runId);
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [cat.id], status: 'other', startedAt: iso(NOW), dueAt: iso(NOW + 24 * HOUR) });

      const returnedAt = now + HOUR;
      now = returnedAt;
      expect((await instanceAction(ctx, cat, runId, 'return', { opinion: 'attach the receipt' })).error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      // The initiator must act now, with no deadline.
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [ann.id], status: 'other', startedAt: iso(returnedAt), dueAt: null });

      const resubmittedAt = now + HOUR;
      now = resubmittedAt;
      const resubmit = (await storedItems(ctx, runId)).find((item) => item.kind === 0 && item.status === 0)!;
      expect((await instanceAction(ctx, ann, runId, 'resubmit', { workId: resubmit.id, opinion: 'attached' })).error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [ben.id, cat.id], status: 'other', startedAt: iso(resubmittedAt), dueAt: iso(resubmittedAt + 24 * HOUR) });

      await decide(cat, 'approve', runId);
      expect((await processOf(sheet, rowId)).assignees).toEqual([ben.id]);
      await decide(ben, 'approve', runId);
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [], status: 'pass', startedAt: iso(resubmittedAt), dueAt: null });
    });

    it('any: every approver until the first decision, then nobody; a rejection shows refuse', async () => {
      now = NOW;
      const sheet = await expenseSheet(ctx, 'Assignees any');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('one', { approvers: [user(ben), user(cat)] }), markStatus(sheet, 'approved')], NOW);
      const { runId, rowId } = await started(sheet, workflowId, 'Lamp');
      expect((await processOf(sheet, rowId)).assignees).toEqual([ben.id, cat.id]);
      await decide(cat, 'reject', runId);
      expect(await processOf(sheet, rowId)).toEqual({ assignees: [], status: 'refuse', startedAt: iso(NOW), dueAt: null });
    });
  },
  { WORKERS: '0' },
  { clock: () => now },
);
