import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { approveStep, batch, block, decideAs, expenseSheet, instanceAction, markStatus, notificationsOf, onlyRun, publishFlow, storedItems, TODO, todoList, user } from '../helpers/approval-fixtures.js';
import { personWithToken, giveRole, type TokenPerson } from '../helpers/people.js';
import type { Sheet } from '../helpers/record-fixtures.js';
import { readRun, recordSteps, RunEnded } from '../../src/workflow/run-store.js';
import { addKey } from '../../src/modules/setup/index.js';
import { setKeyWorksheets } from '../../src/modules/app-keys/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const HOUR = 3_600_000;
/** The clocks of the two blocks below: each starts at NOW and is moved by its tests. */
let actionsNow = NOW;
let deadlineNow = NOW;

/** Who may act on instances, and how they end: revoke, terminate, urge, refusals of strangers and of finished to-dos. */
describeApi(
  'workflow instances: revoke, terminate, urge and who may act',
  (ctx) => {
    let ann: TokenPerson; // the initiator
    let ben: TokenPerson;
    let cat: TokenPerson;
    let dan: TokenPerson; // a stranger to every instance
    let sheet: Sheet;
    let workflowId: string;

    beforeAll(async () => {
      actionsNow = NOW;
      [ann, ben, cat, dan] = await Promise.all(['Ann', 'Ben', 'Cat', 'Dan'].map((name) => personWithToken(ctx, name, NOW)));
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [ann.id]);
      sheet = await expenseSheet(ctx, 'Expenses actions');
      workflowId = await publishFlow(ctx, sheet, [block(), approveStep('both', { approvers: [user(ben), user(cat)], mode: 'all', opinionRequired: true }), markStatus(sheet, 'approved')], NOW);
    });

    /** A new instance started by Ann, waiting on Ben and Cat. */
    const startOne = async (title: string): Promise<string> => {
      const before = new Set((await ctx.database.db.selectFrom('workflow_runs').select('id').where('workflow_id', '=', workflowId).execute()).map((r) => r.id));
      const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: title }] }, ann.headers);
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const runs = await ctx.database.db.selectFrom('workflow_runs').select(['id', 'status']).where('workflow_id', '=', workflowId).execute();
      const run = runs.find((r) => !before.has(r.id))!;
      expect(run.status).toBe('waiting');
      return run.id;
    };
    const workOf = async (runId: string, who: TokenPerson) => (await storedItems(ctx, runId)).find((i) => i.assignee_id === who.id && i.status === 0)!.id;

    it('revoke: only the initiator, only before anyone acted; the run is aborted and its to-dos closed', async () => {
      const first = await startOne('Revoked');
      expect(await instanceAction(ctx, ben, first, 'revoke')).toMatchObject({ error_code: 10005, error_msg: expect.stringContaining('only the initiator') });
      expect((await instanceAction(ctx, ann, first, 'revoke')).error_msg).toBe('');
      expect((await ctx.database.db.selectFrom('workflow_runs').select(['status', 'error']).where('id', '=', first).executeTakeFirstOrThrow())).toEqual({ status: 'aborted', error: `revoked by ${ann.id}` });
      expect((await storedItems(ctx, first)).map((i) => [i.status, i.action])).toEqual([
        [5, 'none'],
        [5, 'none'],
      ]);
      expect((await todoList(ctx, ann, 'type=0&status=3')).instances.map((i) => i.id)).toEqual([first]);
      expect(await instanceAction(ctx, ann, first, 'revoke')).toMatchObject({ error_code: 10002, error_msg: expect.stringContaining('has already ended (aborted)') });

      const second = await startOne('Too late to revoke');
      await decideAs(ctx, ben, 'approve', second, { opinion: 'yes' });
      expect(await instanceAction(ctx, ann, second, 'revoke')).toMatchObject({ error_code: 10002, error_msg: expect.stringContaining('cannot be revoked: "both" was already acted on (approve at') });
    });

    it('terminate: the initiator or an administrator (the app key); strangers and assignees are refused', async () => {
      const first = await startOne('Terminated by the initiator');
      expect(await instanceAction(ctx, dan, first, 'terminate')).toMatchObject({ error_code: 10005 });
      expect(await instanceAction(ctx, ben, first, 'terminate')).toMatchObject({ error_code: 10005 });
      expect((await instanceAction(ctx, ann, first, 'terminate')).error_msg).toBe('');
      const second = await startOne('Terminated by the administrator');
      await decideAs(ctx, ben, 'approve', second, { opinion: 'yes' });
      expect((await instanceAction(ctx, null, second, 'terminate')).error_msg).toBe('');
      expect((await ctx.database.db.selectFrom('workflow_runs').select('error').where('id', '=', second).executeTakeFirstOrThrow()).error).toBe('terminated by user-api');
      expect(await instanceAction(ctx, null, second, 'terminate')).toMatchObject({ error_code: 10002, error_msg: expect.stringContaining('has already ended') });
      // Cat's to-do closed with it: deciding it is refused, not a second decision.
      const late = await batch(ctx, cat, { action: 'approve', items: [{ id: second, workId: (await storedItems(ctx, second)).find((i) => i.assignee_id === cat.id)!.id, opinion: 'late' }] });
      expect(late.data.fail).toEqual([{ id: second, error_code: 10002, error_msg: expect.stringContaining('no longer needed') }]);
    });

    it('a step still running when a person ends its run cannot move it on (RunEnded)', async () => {
      const runId = await startOne('Ended under the runner');
      const seen = (await readRun(ctx.database.db, runId))!;
      expect((await instanceAction(ctx, ann, runId, 'terminate')).error_msg).toBe('');
      await expect(recordSteps(ctx.database.db, seen, [], { status: 'running', cursor: 'mark', state: {} }, NOW)).rejects.toBeInstanceOf(RunEnded);
      expect((await readRun(ctx.database.db, runId))!.status).toBe('aborted');
    });

    it('urge: notifies the pending assignees, at most once an hour per instance', async () => {
      const runId = await startOne('Urged');
      await decideAs(ctx, ben, 'approve', runId, { opinion: 'yes' });
      expect(await instanceAction(ctx, cat, runId, 'urge')).toMatchObject({ error_code: 10005 });
      const before = (await notificationsOf(ctx, cat.id)).length;
      expect(await instanceAction(ctx, ann, runId, 'urge')).toMatchObject({ error_msg: '', data: { urged: [cat.id] } });
      const catNotes = await notificationsOf(ctx, cat.id);
      expect(catNotes).toHaveLength(before + 1);
      expect(catNotes.at(-1)).toMatchObject({ kind: 'urge', body: 'Urged' });
      const again = await ctx.call('POST', `${TODO}/${runId}/urge`, {}, ann.headers);
      expect([again.status, again.body.error_code, again.body.error_msg]).toEqual([429, 51, `instance "${runId}" was urged at ${new Date(actionsNow).toISOString()}; it may be urged again from ${new Date(actionsNow + HOUR).toISOString()} (once an hour)`]);
      actionsNow += HOUR;
      expect((await instanceAction(ctx, null, runId, 'urge')).error_msg).toBe('');
      expect(await notificationsOf(ctx, cat.id)).toHaveLength(before + 2);
    });

    it('strangers cannot act on or see an instance (10005); a decided to-do cannot be decided again; an opinion may be required', async () => {
      const runId = await startOne('Guarded');
      const benWork = await workOf(runId, ben);
      const asDan = await batch(ctx, dan, { action: 'approve', items: [{ id: runId, workId: benWork, opinion: 'me too' }] });
      expect(asDan.data.fail).toEqual([{ id: runId, error_code: 10005, error_msg: `workId "${benWork}": only its assignee or an administrator of the application may act on this to-do` }]);
      expect((await batch(ctx, dan, { action: 'approve', items: [{ id: runId, opinion: 'x' }] })).data.fail[0]).toMatchObject({ error_code: 10007, error_msg: expect.stringContaining('no pending to-do to approve for you') });
      expect((await ctx.call('GET', `${TODO}/${runId}`, undefined, dan.headers)).body).toMatchObject({ error_code: 10005 });
      expect((await batch(ctx, ben, { action: 'approve', items: [{ id: runId, workId: benWork }] })).data.fail[0]).toMatchObject({ error_code: 10001, error_msg: 'opinion is required by the approval step "both"' });
      expect((await batch(ctx, ben, { action: 'fill', items: [{ id: runId, workId: benWork, fields: [] }] })).data.fail[0]).toMatchObject({ error_code: 10002, error_msg: `workId "${benWork}": this to-do is to approve, not to fill` });
      await decideAs(ctx, ben, 'approve', runId, { workId: benWork, opinion: 'yes' });
      const twice = await batch(ctx, ben, { action: 'reject', items: [{ id: runId, workId: benWork, opinion: 'no after all' }] });
      expect(twice.data.fail).toEqual([{ id: runId, error_code: 10002, error_msg: `workId "${benWork}": this to-do is already decided (approve at ${new Date(actionsNow).toISOString()}); it cannot be decided again` }]);
      expect((await batch(ctx, ben, { action: 'approve', items: [{ id: 'no-such-instance', opinion: 'x' }] })).data.fail[0]).toMatchObject({ error_code: 10007 });
      // The instance is the path's: an `id` in the body (found by the fuzz) does not replace it.
      for (const action of ['resubmit', 'return']) {
        const refused = await ctx.call('POST', `${TODO}/${runId}/${action}`, { id: null, workId: '' }, dan.headers);
        expect(refused.status).toBeLessThan(500);
        expect(refused.body.success).toBe(false);
      }
    });

    it('the public batch form: pass and reject many at once, each on its own; the app key decides for anyone', async () => {
      const [one, two, three] = [await startOne('Batch 1'), await startOne('Batch 2'), await startOne('Batch 3')];
      // The app key administers the application: its lists hold everyone's to-dos.
      const all = await todoList(ctx, null, 'type=4&keyword=batch');
      expect(all.instances.filter((i) => [one, two, three].includes(i.id))).toHaveLength(6);
      const selects = await Promise.all([one, two, three].map(async (id) => ({ id, workId: await workOf(id, ben), opinion: 'batch ok' })));
      const passed = await batch(ctx, ben, { type: 4, batchOperationType: 4, selects: [...selects, { id: one, workId: selects[0].workId, opinion: 'again' }] });
      expect(passed.data.success).toEqual([one, two, three]);
      expect(passed.data.fail).toEqual([{ id: one, error_code: 10002, error_msg: expect.stringContaining('already decided') }]);
      const rejected = await batch(ctx, null, { type: 4, batchOperationType: 5, selects: [{ id: two, workId: await workOf(two, cat), opinion: 'no' }] });
      expect(rejected.data).toEqual({ success: [two], fail: [] });
      expect((await storedItems(ctx, two)).find((i) => i.assignee_id === cat.id)).toMatchObject({ status: 4, action: 'reject', acted_by: 'user-api' });
      expect(await batch(ctx, ben, { type: 4, batchOperationType: 7, selects: [] })).toMatchObject({ error_code: 10001, error_msg: 'batchOperationType is required: 4 (pass) or 5 (reject), got 7' });
      expect(await batch(ctx, ben, { action: 'approve' })).toMatchObject({ error_code: 10001 });
      await ctx.app.jobs.runUntilIdle();
      expect((await ctx.database.db.selectFrom('workflow_runs').select('status').where('id', '=', two).executeTakeFirstOrThrow()).status).toBe('refused');
    });

    it('to-dos left open by an instance that ended are off the lists, and they cannot be decided', async () => {
      const runId = await startOne('Failed meanwhile');
      // Every end closes its to-dos now (workflow-ended-todos.test.ts); a run ended before that did not.
      await ctx.database.db.updateTable('workflow_runs').set({ status: 'failed', error: 'gave up' }).where('id', '=', runId).execute();
      expect((await todoList(ctx, ben, 'type=4')).instances.map((i) => i.id)).not.toContain(runId);
      const late = await batch(ctx, ben, { action: 'approve', items: [{ id: runId, opinion: 'x' }] });
      expect(late.data.fail).toEqual([{ id: runId, error_code: 10002, error_msg: `workId "${await workOf(runId, ben)}": its instance has ended (failed); this to-do cannot be decided any more` }]);
    });

    it('a custom key is no administrator: its lists hold nothing and it may act on no to-do (10005)', async () => {
      const runId = await startOne('Custom key');
      const key = await addKey(ctx.database.db, ctx.setup.app.appId, false, NOW);
      await setKeyWorksheets(ctx.database.db, key.appKey, [sheet.id]);
      const custom = { id: 'custom-key', headers: { [`${ctx.config.headerPrefix}-Appkey`]: key.appKey, [`${ctx.config.headerPrefix}-Sign`]: key.sign } };
      expect((await todoList(ctx, custom, 'type=4')).total).toBe(0);
      expect((await todoList(ctx, custom, 'type=0')).total).toBe(0);
      const decided = await batch(ctx, custom, { action: 'approve', items: [{ id: runId, workId: await workOf(runId, ben), opinion: 'x' }] });
      expect(decided.data.fail[0]).toMatchObject({ error_code: 10005 });
      expect(await instanceAction(ctx, custom, runId, 'terminate')).toMatchObject({ error_code: 10005 });
    });

    it('returning to the initiator needs a person: an instance the app key started can only go back to a step', async () => {
      const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'By key' }] });
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const run = (await ctx.database.db.selectFrom('workflow_runs').select(['id', 'initiator_id']).where('row_id', '=', (created.body.data as { id: string }).id).executeTakeFirstOrThrow());
      expect(run.initiator_id).toBe('user-api');
      expect(await instanceAction(ctx, ben, run.id, 'return', { opinion: 'who sent this?' })).toMatchObject({ error_code: 10002, error_msg: 'to: the instance was started by user-api, not a person; it can only be returned to an earlier step' });
    });
  },
  { WORKERS: '0' },
  { clock: () => actionsNow, sweeps: false },
);

describeApi(
  'workflow approvals: deadlines, with the clock moved',
  (ctx) => {
    let ann: TokenPerson;
    let ben: TokenPerson;
    let counter = 0;

    beforeAll(async () => {
      deadlineNow = NOW;
      [ann, ben] = await Promise.all(['Ann', 'Ben'].map((name) => personWithToken(ctx, name, NOW)));
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [ann.id]);
    });

    /** A flow whose approval by Ben has this deadline, and its one instance, started now. */
    const startWith = async (deadline: unknown) => {
      const sheet = await expenseSheet(ctx, `Deadline ${++counter}`);
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('boss', { approvers: [user(ben)], deadline }), markStatus(sheet, 'approved')], deadlineNow);
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'Timed' }] }, ann.headers)).body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      return { workflowId, runId: (await onlyRun(ctx, workflowId)).id };
    };

    it('approves automatically when the deadline passes, not before', async () => {
      const { workflowId, runId } = await startWith({ hours: 2, action: 'approve' });
      expect((await storedItems(ctx, runId))[0].due_at).toBe(deadlineNow + 2 * HOUR);
      deadlineNow += 2 * HOUR - 1;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      deadlineNow += 1;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect((await onlyRun(ctx, workflowId)).status).toBe('passed');
      expect((await storedItems(ctx, runId))[0]).toMatchObject({ status: 1, action: 'approve', acted_by: 'user-workflow', opinion: 'decided automatically: the deadline passed' });
    });

    it('rejects at the deadline; or notifies the assignee once and waits on', async () => {
      const rejected = await startWith({ hours: 1, action: 'reject' });
      deadlineNow += HOUR;
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, rejected.workflowId)).status).toBe('refused');

      const notified = await startWith({ hours: 1, action: 'notify' });
      deadlineNow += HOUR;
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, notified.workflowId)).status).toBe('waiting');
      expect((await notificationsOf(ctx, ben.id)).filter((n) => n.kind === 'deadline')).toHaveLength(1);
      deadlineNow += 5 * HOUR;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      await decideAs(ctx, ben, 'approve', notified.runId);
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, notified.workflowId)).status).toBe('passed');
    });

    it('a resubmitted step gets a new deadline: the first round’s timer no longer acts', async () => {
      const { workflowId, runId } = await startWith({ hours: 2, action: 'approve' });
      deadlineNow += HOUR;
      expect((await instanceAction(ctx, ben, runId, 'return', { opinion: 'fix it' })).error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect((await instanceAction(ctx, ann, runId, 'resubmit')).error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      deadlineNow += HOUR; // the first round's deadline
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('waiting');
      expect((await storedItems(ctx, runId)).filter((i) => i.kind === 4).map((i) => i.status)).toEqual([4, 0]);
      deadlineNow += HOUR; // the second round's
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('passed');
    });
  },
  { WORKERS: '0' },
  { clock: () => deadlineNow, sweeps: false },
);
