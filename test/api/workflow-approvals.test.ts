import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { approveStep, batch, block, BLOCK, decideAs, expenseSheet, instanceAction, markStatus, notificationsOf, onlyRun, publishFlow, START, storedItems, TODO, todoList, user } from '../helpers/approval-fixtures.js';
import { personWithToken, giveRole, type TokenPerson } from '../helpers/people.js';
import { readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';
import { smtpSink } from '../helpers/smtp-sink.js';
import { node, runsOf } from '../helpers/workflow-fixtures.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);

/** Mail goes to a local SMTP sink: the notifications' mail, and the scenario's send_email to the submitter. */
const smtp = smtpSink();
const env: Record<string, string> = { WORKERS: '0' };
beforeAll(async () => {
  await smtp.start();
  env.SMTP_URL = smtp.url();
});
afterAll(() => smtp.close());

/** The subjects of the mail the sink took for a person, in the order it came. */
async function subjectsMailedTo(ctx: ApiContext, who: TokenPerson): Promise<Array<string | undefined>> {
  const { email } = await ctx.database.db.selectFrom('accounts').select('email').where('id', '=', who.id).executeTakeFirstOrThrow();
  return smtp.mailbox.filter((mail) => mail.to.includes(email)).map((mail) => mail.headers.get('subject'));
}

/** Approval workflows end to end: to-dos opened by approve steps, decided over HTTP, the run going on. */
describeApi(
  'workflow approvals: the end-to-end scenario and the approval modes',
  (ctx) => {
    let ann: TokenPerson; // the initiator
    let ben: TokenPerson;
    let cat: TokenPerson;

    beforeAll(async () => {
      ann = await personWithToken(ctx, 'Ann', NOW);
      ben = await personWithToken(ctx, 'Ben', NOW);
      cat = await personWithToken(ctx, 'Cat', NOW);
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [ann.id]);
    });

    const createAs = async (who: TokenPerson, sheet: Sheet, title: string) => {
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: title }, { id: 'amount', value: 1200 }] }, who.headers);
      expect(created.body.error_msg).toBe('');
      return created.body.data.id;
    };

    it('record created → two approvers (all) → one returns it, the initiator resubmits, both approve → a later node updates the record and mails the submitter; notifications, and their mail, along the way', async () => {
      smtp.mailbox.length = 0;
      const sheet = await expenseSheet(ctx, 'Expenses E2E');
      const tellSubmitter = node('tell', 'send_email', { to: [{ kind: 'triggerUser' }], subject: `Approved: $${START}-${sheet.field.title}$`, body: 'Your expense was approved.' }, 'mark');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('managers', { approvers: [user(ben), user(cat)], mode: 'all' }), markStatus(sheet, 'approved'), tellSubmitter], NOW);
      const rowId = await createAs(ann, sheet, 'Laptop');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      expect(run.status).toBe('waiting');
      expect(run.initiator_id).toBe(ann.id);

      // Both approvers see it awaiting their approval, with the record's title.
      for (const who of [ben, cat]) {
        const listed = await todoList(ctx, who, 'type=4');
        expect(listed.total).toBe(1);
        expect(listed.instances[0]).toMatchObject({ id: run.id, type: 4, status: 1, workStatus: 0, nodeAlias: 'managers', title: 'Laptop', processName: 'Test flow' });
      }
      // The approver has no role in the application, yet sees the record through the step.
      const detail = await ctx.call<{ record: { fields: Array<{ id: string; value: unknown }> }; work: { mode: string }; pending: unknown[] }>('GET', `${TODO}/${run.id}`, undefined, ben.headers);
      expect(detail.body.error_msg).toBe('');
      expect(detail.body.data.work.mode).toBe('all');
      expect(detail.body.data.record.fields.find((f) => f.id === sheet.field.title)?.value).toBe('Laptop');
      expect(detail.body.data.pending).toHaveLength(2);

      await decideAs(ctx, ben, 'approve', run.id, { opinion: 'fine by me' });
      // "All": one approval does not move the run on (its step only notes who is left).
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect((await onlyRun(ctx, workflowId)).status).toBe('waiting');
      expect((await storedItems(ctx, run.id)).filter((i) => i.status === 0).map((i) => i.assignee_id)).toEqual([cat.id]);

      const returned = await instanceAction(ctx, cat, run.id, 'return', { opinion: 'attach the receipt' });
      expect(returned.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      // The initiator gets a resubmit to-do, shown on their "started" list.
      const started = await todoList(ctx, ann, 'type=0');
      expect(started.instances).toEqual([expect.objectContaining({ id: run.id, type: 0, status: 1, nodeAlias: 'managers', assignees: [{ accountId: ann.id, fullname: 'Ann' }] })]);
      const resubmitWork = started.instances[0].workId!;
      expect(resubmitWork).toEqual(expect.any(String));
      expect((await notificationsOf(ctx, ann.id)).map((n) => n.kind)).toEqual(['returned']);

      const resubmitted = await instanceAction(ctx, ann, run.id, 'resubmit', { workId: resubmitWork, opinion: 'receipt attached' });
      expect(resubmitted.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      // Both approvers get a fresh to-do (the step starts again), decided in the public batch form.
      const again = await storedItems(ctx, run.id);
      const fresh = again.filter((i) => i.kind === 4 && i.status === 0);
      expect(fresh.map((i) => i.assignee_id).sort()).toEqual([ben.id, cat.id].sort());
      for (const who of [ben, cat]) {
        const workId = fresh.find((i) => i.assignee_id === who.id)!.id;
        const decided = await batch(ctx, who, { type: 4, batchOperationType: 4, selects: [{ id: run.id, workId, opinion: 'ok now', opinionType: 3 }] });
        expect(decided.data).toEqual({ success: [run.id], fail: [] });
      }
      await ctx.app.jobs.runUntilIdle();

      const [finished] = await runsOf(ctx, workflowId);
      expect(finished.status).toBe('passed');
      expect(finished.steps.map((s) => [s.node_alias, s.exit])).toEqual([
        [START, 'next'],
        [BLOCK, BLOCK],
        ['managers', 'approved'],
        ['mark', 'next'],
        ['tell', 'next'],
      ]);
      expect(JSON.parse(finished.state)[BLOCK].exit).toBe('approved');
      expect(valueOf(await readRecord(ctx, sheet, rowId), sheet.field.status)).toBe('approved');
      // Every decision is in the history, in both rounds.
      const history = await ctx.call<{ history: Array<{ assignee: { accountId: string }; action: string; opinion: string }>; status: number }>('GET', `${TODO}/${run.id}`, undefined, ann.headers);
      expect(history.body.data.status).toBe(2);
      expect(history.body.data.history.map((h) => `${h.assignee.accountId === ann.id ? 'ann' : h.assignee.accountId === ben.id ? 'ben' : 'cat'}:${h.action}:${h.opinion}`).sort()).toEqual(
        ['ben:approve:fine by me', 'cat:return:attach the receipt', 'ann:resubmit:receipt attached', 'ben:approve:ok now', 'cat:approve:ok now'].sort(),
      );
      // Two to-dos each, each notified; done lists hold what each decided.
      for (const who of [ben, cat]) expect((await notificationsOf(ctx, who.id)).map((n) => [n.kind, n.link.startsWith(`${TODO}/${run.id}?workId=`)])).toEqual([['todo', true], ['todo', true]]);
      expect((await todoList(ctx, ben, 'type=-1')).total).toBe(2);
      expect((await todoList(ctx, ben, 'type=4')).total).toBe(0);
      // Each notification was mailed to its person (SMTP_URL is set), and the send_email node mailed the submitter.
      for (const who of [ann, ben, cat]) expect(await subjectsMailedTo(ctx, who)).toEqual([...(await notificationsOf(ctx, who.id)).map((n) => n.title), ...(who === ann ? ['Approved: Laptop'] : [])]);
      expect((await notificationsOf(ctx, ann.id)).map((n) => n.title)).toEqual([expect.stringContaining('resubmit')]);
    });

    it('any one: the first decision decides; the other to-do closes and cannot be decided afterwards', async () => {
      const sheet = await expenseSheet(ctx, 'Expenses any');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('either', { approvers: [user(ben), user(cat)], mode: 'any' }), markStatus(sheet, 'approved')], NOW);
      await createAs(ann, sheet, 'Chair');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      await decideAs(ctx, cat, 'reject', run.id, { opinion: 'too dear' });
      await ctx.app.jobs.runUntilIdle();
      // A rejection ends the run as refused (the block's default); nothing after it runs.
      expect((await onlyRun(ctx, workflowId)).status).toBe('refused');
      expect((await storedItems(ctx, run.id)).map((i) => [i.assignee_id === ben.id ? 'ben' : 'cat', i.status, i.action])).toEqual(
        expect.arrayContaining([
          ['cat', 4, 'reject'],
          ['ben', 5, 'none'],
        ]),
      );
      const late = await batch(ctx, ben, { action: 'approve', items: [{ id: run.id, workId: (await storedItems(ctx, run.id)).find((i) => i.assignee_id === ben.id)!.id }] });
      expect(late.data.success).toEqual([]);
      expect(late.data.fail).toEqual([{ id: run.id, error_code: 10002, error_msg: expect.stringContaining('no longer needed') }]);
      const listed = await todoList(ctx, ann, 'type=0&status=5');
      expect(listed.instances.map((i) => i.id)).toEqual([run.id]);
    });

    it('all: two approvals at the same moment settle the step exactly once', async () => {
      const sheet = await expenseSheet(ctx, 'Expenses at once');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('pair', { approvers: [user(ben), user(cat)], mode: 'all' }), markStatus(sheet, 'approved')], NOW);
      await createAs(ann, sheet, 'Bench');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      const results = await Promise.all([ben, cat].map((who) => batch(ctx, who, { action: 'approve', items: [{ id: run.id }] })));
      expect(results.map((r) => r.data)).toEqual([
        { success: [run.id], fail: [] },
        { success: [run.id], fail: [] },
      ]);
      // Taken one after another: the first left the other pending (progress), the second settled the step.
      const signals = (await ctx.database.db.selectFrom('background_jobs').select('payload').execute()).map((j) => (JSON.parse(j.payload) as { signal: { data: { action: string } } }).signal.data.action);
      expect(signals.sort()).toEqual(['approve', 'progress']);
      await ctx.app.jobs.runUntilIdle();
      const passed = await runsOf(ctx, workflowId);
      expect(passed.map((r) => r.status)).toEqual(['passed']);
      expect(passed[0].steps.filter((step) => step.node_alias === 'pair').map((step) => step.exit)).toEqual(['approved']);
      expect(passed[0].steps.filter((step) => step.node_alias === 'mark')).toHaveLength(1);
    });

    it('in order: the next approver gets their to-do only once the one before approved', async () => {
      const sheet = await expenseSheet(ctx, 'Expenses in order');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('chain', { approvers: [user(cat), user(ben)], mode: 'inOrder' }), markStatus(sheet, 'approved')], NOW);
      await createAs(ann, sheet, 'Desk');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      expect((await storedItems(ctx, run.id)).map((i) => i.assignee_id)).toEqual([cat.id]);
      expect((await todoList(ctx, ben, 'type=4')).instances.filter((i) => i.id === run.id)).toEqual([]);
      await decideAs(ctx, cat, 'approve', run.id);
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('waiting');
      expect((await storedItems(ctx, run.id)).map((i) => [i.assignee_id, i.status])).toEqual([
        [cat.id, 1],
        [ben.id, 0],
      ]);
      await decideAs(ctx, ben, 'approve', run.id);
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('passed');
    });

    it('a block with onReject "exit" leaves by rejected, and a later branch routes on its exit', async () => {
      const sheet = await expenseSheet(ctx, 'Expenses exit');
      const exitOf = (value: string) => ({ logic: 'and', conditions: [{ left: { kind: 'field', node: BLOCK, fieldId: 'exit' }, op: 'eq', right: { kind: 'literal', value } }] });
      const workflowId = await publishFlow(
        ctx,
        sheet,
        [
          block({ onReject: 'exit' }),
          approveStep('first', { approvers: [user(ben)] }),
          approveStep('second', { approvers: [user(cat)] }, 'first'),
          node('route', 'branch', { paths: [{ alias: 'yes', condition: exitOf('approved') }, { alias: 'no', condition: exitOf('rejected') }] }, BLOCK),
          markStatus(sheet, 'approved', null, 'mark_yes', 'yes'),
          markStatus(sheet, 'rejected', null, 'mark_no', 'no'),
        ],
        NOW,
      );
      const rowId = await createAs(ann, sheet, 'Sofa');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      await decideAs(ctx, ben, 'reject', run.id, { opinion: 'no' });
      await ctx.app.jobs.runUntilIdle();
      const [done] = await runsOf(ctx, workflowId);
      expect(done.status).toBe('passed');
      // The second step never ran: the block was left at the rejection.
      expect(done.steps.map((s) => [s.node_alias, s.exit])).toEqual([
        [START, 'next'],
        [BLOCK, BLOCK],
        ['first', 'rejected'],
        ['route', 'no'],
        ['mark_no', 'next'],
      ]);
      expect(valueOf(await readRecord(ctx, sheet, rowId), sheet.field.status)).toBe('rejected');
    });

    it('returns to an earlier step: it runs again with fresh to-dos, and the run goes on from there', async () => {
      const sheet = await expenseSheet(ctx, 'Expenses back');
      const workflowId = await publishFlow(ctx, sheet, [block(), approveStep('first', { approvers: [user(ben)] }), approveStep('second', { approvers: [user(cat)] }, 'first'), markStatus(sheet, 'approved')], NOW);
      await createAs(ann, sheet, 'Lamp');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      await decideAs(ctx, ben, 'approve', run.id);
      await ctx.app.jobs.runUntilIdle();
      // Only earlier approve or fill-in steps of the block are targets.
      expect(await instanceAction(ctx, cat, run.id, 'return', { to: 'mark' })).toMatchObject({ error_code: 10002, error_msg: expect.stringContaining('to: "mark" is not an earlier approve or fill-in step') });
      expect((await instanceAction(ctx, cat, run.id, 'return', { to: 'first', opinion: 'look again' })).error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const items = await storedItems(ctx, run.id);
      expect(items.map((i) => [i.node_alias, i.assignee_id === ben.id ? 'ben' : 'cat', i.status, i.action])).toEqual([
        ['first', 'ben', 1, 'approve'],
        ['second', 'cat', 4, 'return'],
        ['first', 'ben', 0, null],
      ]);
      await decideAs(ctx, ben, 'approve', run.id);
      await ctx.app.jobs.runUntilIdle();
      await decideAs(ctx, cat, 'approve', run.id);
      await ctx.app.jobs.runUntilIdle();
      const [done] = await runsOf(ctx, workflowId);
      expect(done.status).toBe('passed');
      expect(done.steps.map((s) => `${s.node_alias}:${s.exit}`)).toEqual([`${START}:next`, `${BLOCK}:${BLOCK}`, 'first:approved', 'second:returned', 'first:approved', 'second:approved', 'mark:next']);
    });

    it('a fill-in writes the submitted values to the record when its step goes on; its fields are checked when submitted', async () => {
      const sheet = await expenseSheet(ctx, 'Expenses fill');
      const workflowId = await publishFlow(
        ctx,
        sheet,
        [block(), node('explain', 'fill_in', { assignees: [user(ben)], fields: [{ fieldId: sheet.field.comment, required: true }], visibleFields: [sheet.field.title] }, null, BLOCK), markStatus(sheet, 'filled')],
        NOW,
      );
      const rowId = await createAs(ann, sheet, 'Phone');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      expect((await todoList(ctx, ben, 'type=3')).instances.map((i) => i.id)).toEqual([run.id]);
      const detail = await ctx.call<{ record: { fields: Array<{ id: string }> }; fillable: Array<{ id: string; name: string; required: boolean }> }>('GET', `${TODO}/${run.id}`, undefined, ben.headers);
      expect(detail.body.data.fillable).toEqual([{ id: sheet.field.comment, name: 'Comment', type: '2', required: true }]);
      // The step shows its visible fields and the ones to fill only.
      expect(detail.body.data.record.fields.map((f) => f.id)).toEqual([sheet.field.title, sheet.field.comment]);
      const fill = (fields: unknown[]) => batch(ctx, ben, { action: 'fill', items: [{ id: run.id, fields }] });
      expect((await fill([])).data.fail).toEqual([{ id: run.id, error_code: 430019, error_msg: `fields: the field "${sheet.field.comment}" must be filled in` }]);
      expect((await fill([{ id: 'amount', value: 3 }])).data.fail[0]).toMatchObject({ error_code: 10002, error_msg: 'fields[0].id: "amount" is not a field this step lets you fill' });
      expect((await fill([{ id: 'comment', value: 'for the new hire' }])).data).toEqual({ success: [run.id], fail: [] });
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('passed');
      const record = await readRecord(ctx, sheet, rowId);
      expect([valueOf(record, sheet.field.comment), valueOf(record, sheet.field.status)]).toEqual(['for the new hire', 'filled']);
    });
  },
  env,
  { clock: () => NOW, sweeps: false },
);
