import { describe, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';
import { node, publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { MAX_CHAIN_DEPTH, TriggerType } from '../../src/workflow/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const START = 'start_a1b2';

const field = (fieldId: string) => ({ kind: 'field' as const, node: START, fieldId });
const literal = (value: unknown) => ({ kind: 'literal' as const, value });

describeApi(
  'workflow runs: triggers through the outbox, the runner, steps',
  (ctx) => {
    let sheet: Sheet;
    let workflowId: string;

    it('sets up an expenses worksheet and a published workflow: over 1,000 is "big", else "small"', async () => {
      sheet = await makeSheet(ctx, 'Expenses', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Amount', alias: 'amount', type: '6' },
        { name: 'Size', alias: 'size', type: '2' },
      ]);
      const update = (value: string) => ({ worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.size, value: { kind: 'template', value: `${value} $${START}-${sheet.field.title}$` } }] });
      workflowId = await publishDirect(
        ctx,
        { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } },
        [
          node('size_branch', 'branch', { paths: [{ alias: 'big', condition: { logic: 'and', conditions: [{ left: field(sheet.field.amount), op: 'gt', right: literal(1000) }] } }, { alias: 'small' }] }, START),
          node('mark_big', 'update_record', update('big'), null, 'big'),
          node('mark_small', 'update_record', update('small'), null, 'small'),
        ],
        NOW,
      );
    });

    it('runs after the write commits: the record is updated by the path its amount chooses, each step recorded', async () => {
      const big = await createRecord(ctx, sheet, [{ id: 'title', value: 'Laptop' }, { id: 'amount', value: 1500 }]);
      const small = await createRecord(ctx, sheet, [{ id: 'title', value: 'Pens' }, { id: 'amount', value: 12 }]);
      // Queued in the write's transaction, not yet run: the worker of this test runs only when told.
      expect((await runsOf(ctx, workflowId)).map((r) => r.status)).toEqual(['queued', 'queued']);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      expect(valueOf(await readRecord(ctx, sheet, big), sheet.field.size)).toBe('big Laptop');
      expect(valueOf(await readRecord(ctx, sheet, small), sheet.field.size)).toBe('small Pens');
      const runs = await runsOf(ctx, workflowId);
      expect(runs.map((r) => [r.row_id, r.status])).toEqual([
        [big, 'passed'],
        [small, 'passed'],
      ]);
      expect(runs[0].steps.map((s) => [s.node_alias, s.status, s.exit])).toEqual([
        [START, 'done', 'next'],
        ['size_branch', 'done', 'big'],
        ['mark_big', 'done', 'next'],
      ]);
      expect(runs[1].steps.map((s) => s.node_alias)).toEqual([START, 'size_branch', 'mark_small']);
      expect(JSON.parse(runs[0].steps[2].output!)).toMatchObject({ rowId: big, fields: { [sheet.field.size]: 'big Laptop' } });
      // No job is left behind.
      expect(await ctx.database.db.selectFrom('background_jobs').select('id').execute()).toEqual([]);
    });

    it('writes made by a workflow are attributed to the workflow pseudo-user', async () => {
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'Desk' }, { id: 'amount', value: 2000 }]);
      await ctx.app.jobs.runUntilIdle();
      const record = await readRecord(ctx, sheet, id);
      expect(record._updatedBy.accountId).toBe('user-workflow');
    });

    it('triggers nothing when the write says triggerWorkflow: false', async () => {
      const before = (await runsOf(ctx, workflowId)).length;
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'Quiet' }, { id: 'amount', value: 5000 }], triggerWorkflow: false });
      expect(created.body.error_msg).toBe('');
      expect(await runsOf(ctx, workflowId)).toHaveLength(before);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      expect(valueOf(await readRecord(ctx, sheet, created.body.data.id), sheet.field.size)).toBe('');
    });

    it('triggers nothing when the write rolls back', async () => {
      const before = (await runsOf(ctx, workflowId)).length;
      const failed = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows: [{ fields: [{ id: 'title', value: 'A' }] }, { fields: [{ id: 'amount', value: 3 }] }] });
      expect(failed.body.success).toBe(false);
      expect(await runsOf(ctx, workflowId)).toHaveLength(before);
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW, sweeps: false },
);

describeApi(
  'workflow runs: trigger filters, trigger fields and the chain limit',
  (ctx) => {
    let sheet: Sheet;

    it('starts runs only for records passing the trigger filter, and updates only of the trigger fields', async () => {
      sheet = await makeSheet(ctx, 'Tickets', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Priority', alias: 'priority', type: '6' },
        { name: 'Notes', alias: 'notes', type: '2' },
        { name: 'Count', alias: 'count', type: '6' },
      ]);
      const urgent = await publishDirect(
        ctx,
        { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'update', triggerFields: [sheet.field.priority], filter: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'priority', operator: 'ge', value: 3 }] } } },
        [node('note', 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.notes, value: literal('escalated') }] }, START)],
        NOW,
      );
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'T1' }, { id: 'priority', value: 1 }]);
      const patch = (fields: unknown[]) => ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields });
      await patch([{ id: 'notes', value: 'x' }]); // not a trigger field
      await patch([{ id: 'priority', value: 2 }]); // trigger field, filter fails
      expect(await runsOf(ctx, urgent)).toHaveLength(0);
      await patch([{ id: 'priority', value: 5 }]);
      expect(await runsOf(ctx, urgent)).toHaveLength(1);
      await ctx.app.jobs.runUntilIdle();
      expect(valueOf(await readRecord(ctx, sheet, id), sheet.field.notes)).toBe('escalated');
    });

    it('stops a workflow that keeps triggering itself at the chain limit, with the reason in its run history', async () => {
      const counter = await publishDirect(
        ctx,
        { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'update', triggerFields: [sheet.field.count] } },
        [node('bump', 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.count, value: { kind: 'template', value: `1$${START}-${sheet.field.count}$` } }] }, START)],
        NOW,
      );
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'Loop' }]);
      await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields: [{ id: 'count', value: 1 }] });
      await ctx.app.jobs.runUntilIdle();
      const runs = await runsOf(ctx, counter);
      expect(runs.map((r) => r.chain_depth)).toEqual([0, 1, 2, 3, 4, 5].map(Number));
      expect(runs.slice(0, MAX_CHAIN_DEPTH).map((r) => r.status + (r.error ?? ''))).toEqual(Array(MAX_CHAIN_DEPTH).fill('passed'));
      expect(runs[MAX_CHAIN_DEPTH].status).toBe('failed');
      expect(runs[MAX_CHAIN_DEPTH].error).toContain(`limit of ${MAX_CHAIN_DEPTH}`);
      // 1 → 11 → 111 … five runs each prefixed a 1.
      expect(valueOf(await readRecord(ctx, sheet, id), sheet.field.count)).toBe('111111');
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW, sweeps: false },
);

describe('workflow runs', () => {
  it('has the chain limit the docs name', () => {
    expect(MAX_CHAIN_DEPTH).toBe(5);
  });
});
