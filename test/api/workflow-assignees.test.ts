import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { approveStep, block, decideAs, expenseSheet, onlyRun, publishFlow, START, storedItems, TODO, todoList, user } from '../helpers/approval-fixtures.js';
import { addPerson, personWithToken, giveRole, type TokenPerson } from '../helpers/people.js';
import type { Sheet } from '../helpers/record-fixtures.js';
import { node } from '../helpers/workflow-fixtures.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);

/**
 * Whom steps go to, resolved when they start: people, the application's roles (with their
 * departments and department trees), departments, jobs, organization roles, member fields, the
 * initiator, the record's owner and the initiator's department manager; copies (cc) do not wait.
 * The organization: top ▸ sales (manager Max; Ann works there) and top ▸ ops ▸ night (Eve in ops, Hal in night).
 */
describeApi(
  'workflow assignees and copies',
  (ctx) => {
    const people: Record<string, TokenPerson> = {};
    let gus: string; // disabled
    let sheet: Sheet;
    const org = () => ctx.setup.organizationId;
    const name = (id: string) => Object.entries(people).find(([, p]) => p.id === id)?.[0] ?? (id === gus ? 'Gus' : id);

    beforeAll(async () => {
      for (const who of ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Hal', 'Max', 'Top']) people[who] = await personWithToken(ctx, who, NOW);
      gus = await addPerson(ctx, `gus-${ctx.engine}@example.com`, 'a good password', { now: NOW, status: 0 });
      const db = ctx.database.db;
      await db
        .insertInto('departments')
        .values([
          { id: 'd-top', organization_id: org(), parent_id: null, name: 'Top', created_at: NOW },
          { id: 'd-sales', organization_id: org(), parent_id: 'd-top', name: 'Sales', created_at: NOW },
          { id: 'd-ops', organization_id: org(), parent_id: 'd-top', name: 'Ops', created_at: NOW },
          { id: 'd-night', organization_id: org(), parent_id: 'd-ops', name: 'Night', created_at: NOW },
        ])
        .execute();
      await db
        .insertInto('department_members')
        .values([
          { department_id: 'd-sales', account_id: people.Ann.id, is_primary: 1 },
          { department_id: 'd-sales', account_id: people.Max.id, is_primary: 1 },
          { department_id: 'd-ops', account_id: people.Eve.id, is_primary: 1 },
          { department_id: 'd-night', account_id: people.Hal.id, is_primary: 1 },
          { department_id: 'd-top', account_id: people.Top.id, is_primary: 1 },
        ])
        .execute();
      await db
        .insertInto('department_managers')
        .values([
          { department_id: 'd-sales', account_id: people.Max.id },
          { department_id: 'd-top', account_id: people.Top.id },
        ])
        .execute();
      await db.insertInto('jobs').values({ id: 'j-buyer', organization_id: org(), name: 'Buyer', created_at: NOW }).execute();
      await db.insertInto('job_members').values({ job_id: 'j-buyer', account_id: people.Cat.id }).execute();
      await db.insertInto('org_roles').values({ id: 'o-audit', organization_id: org(), name: 'Audit', created_at: NOW }).execute();
      await db.insertInto('org_role_members').values({ role_id: 'o-audit', account_id: people.Dan.id }).execute();
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [people.Ann.id, people.Max.id]);
      const reviewers = await giveRole(ctx, 'Reviewers', { permissionScope: 20 }, [people.Ben.id]);
      expect((await ctx.call('POST', `/v3/app/roles/${reviewers}/members`, { departmentTreeIds: ['d-ops'] })).body.error_msg).toBe('');
      sheet = await expenseSheet(ctx, 'Expenses assignees');
      const recipients = [
        { kind: 'role', id: reviewers },
        { kind: 'user', id: gus },
        { kind: 'field', node: START, fieldId: sheet.field.approver },
        { kind: 'job', id: 'j-buyer' },
        { kind: 'orgRole', id: 'o-audit' },
        { kind: 'department', id: 'd-ops' },
        { kind: 'triggerUser' },
        { kind: 'owner' },
        { kind: 'supervisor' },
      ];
      // A copy and an in-app notice to the same recipients: one form and one resolver for both.
      await publishFlow(ctx, sheet, [node('copy', 'cc', { recipients, message: `FYI: $${START}-${sheet.field.title}$` }, START), node('tell', 'send_internal_notice', { to: recipients, title: `New: $${START}-${sheet.field.title}$` }, 'copy')], NOW);
    });

    const createAs = async (who: TokenPerson, title: string) => {
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: title }, { id: 'approver', value: [people.Fay.id] }] }, who.headers);
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const run = await ctx.database.db.selectFrom('workflow_runs').select(['id', 'status']).where('row_id', '=', created.body.data.id).executeTakeFirstOrThrow();
      return run;
    };

    it('resolves every kind of recipient to active members, each once; a copy does not wait', async () => {
      const run = await createAs(people.Ann, 'Printer');
      expect(run.status).toBe('passed');
      const items = await storedItems(ctx, run.id);
      expect(items.every((i) => i.kind === 5 && i.status === 0 && i.note === 'FYI: Printer')).toBe(true);
      // Ben by the role, Eve and Hal by its department tree; Fay by the field; Cat by job, Dan by organization role; Ann as initiator and owner; Max as her manager. Gus is disabled.
      expect(items.map((i) => name(i.assignee_id)).sort()).toEqual(['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Hal', 'Max']);
      const notices = await ctx.database.db.selectFrom('notifications').select('account_id').where('kind', '=', 'notice').where('title', '=', 'New: Printer').execute();
      expect(notices.map((n) => name(n.account_id)).sort()).toEqual(['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Hal', 'Max']);
    });

    it("the supervisor of a department's manager is the manager of the department above", async () => {
      const run = await createAs(people.Max, 'Monitor');
      const names = (await storedItems(ctx, run.id)).map((i) => name(i.assignee_id)).sort();
      expect(names).toEqual(['Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Hal', 'Max', 'Top']);
    });

    it('copies are listed as type 5 and read when opened', async () => {
      const listed = await todoList(ctx, people.Cat, 'type=5');
      expect(listed.instances.map((i) => [i.title, i.workStatus])).toEqual([
        ['Monitor', 0],
        ['Printer', 0],
      ]);
      const opened = await ctx.call<{ work: { status: number; type: number }; record: { fields: Array<{ id: string; value: unknown }> } }>('GET', `${TODO}/${listed.instances[1].id}?workId=${listed.instances[1].workId}`, undefined, people.Cat.headers);
      expect(opened.body.error_msg).toBe('');
      expect(opened.body.data.work).toMatchObject({ type: 5, status: 0 });
      expect(opened.body.data.record.fields.find((f) => f.id === sheet.field.title)?.value).toBe('Printer');
      expect((await todoList(ctx, people.Cat, 'type=5')).instances.map((i) => i.workStatus)).toEqual([0, 1]);
      // Another person's copy is not Cat's to open.
      const dans = (await todoList(ctx, people.Dan, 'type=5')).instances[0];
      expect((await ctx.call('GET', `${TODO}/${dans.id}?workId=${dans.workId}`, undefined, people.Cat.headers)).body).toMatchObject({ error_code: 10005 });
    });

    it('approvers by role: the step goes to every holder; with nobody to approve it passes by default', async () => {
      const other = await expenseSheet(ctx, 'Expenses nobody');
      const workflowId = await publishFlow(ctx, other, [block(), approveStep('nobody', { approvers: [{ kind: 'job', id: 'no-such-job' }] }), approveStep('buyers', { approvers: [{ kind: 'job', id: 'j-buyer' }, user(people.Ben)] }, 'nobody')], NOW);
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${other.id}/rows`, { fields: [{ id: 'title', value: 'Cable' }] }, people.Ann.headers);
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const run = await onlyRun(ctx, workflowId);
      expect((await storedItems(ctx, run.id)).map((i) => [i.node_alias, name(i.assignee_id)]).sort()).toEqual([
        ['buyers', 'Ben'],
        ['buyers', 'Cat'],
      ]);
      await decideAs(ctx, people.Cat, 'approve', run.id);
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('passed');
      const steps = await ctx.database.db.selectFrom('workflow_steps').select(['node_alias', 'output']).where('run_id', '=', run.id).orderBy('seq').execute();
      expect(JSON.parse(steps.find((s) => s.node_alias === 'nobody')!.output!)).toMatchObject({ noApprover: true, exit: 'approved' });
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW },
);
