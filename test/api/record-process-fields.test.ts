import { expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';
import { counterWorkflow, publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { noteProcessState } from '../../src/modules/records/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

type FlatRow = Record<string, unknown> & { id: string };

const condition = (field: string, operator: string, value?: unknown) => ({ type: 'group', logic: 'AND', children: [{ type: 'condition', field, operator, ...(value === undefined ? {} : { value }) }] });

describeApi(
  'records show their process: _processName … _processStatus kept by the runner, read, filtered and sorted',
  (ctx) => {
    let sheet: Sheet;
    let workflowId: string;
    let passed: string;
    let waiting: string;

    const list = async (body: Record<string, unknown>) => {
      const answer = await ctx.call<{ rows: FlatRow[]; total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { useFieldIdAsKey: true, includeSystemFields: true, ...body });
      return answer;
    };
    const rowOf = async (id: string) => {
      const answer = await ctx.call<FlatRow>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}?useFieldIdAsKey=true&includeSystemFields=true`);
      expect(answer.body.error_msg).toBe('');
      return answer.body.data;
    };
    const idsOf = async (body: Record<string, unknown>) => {
      const answer = await list(body);
      expect(answer.body.error_msg).toBe('');
      return answer.body.data.rows.map((r) => r.id);
    };

    it('shows empty process fields on a record no run has reached', async () => {
      sheet = await makeSheet(ctx, 'Expenses', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Hits', alias: 'hits', type: '2' },
        { name: 'Stage', alias: 'stage', type: '2' },
      ]);
      const { trigger, nodes } = counterWorkflow(sheet.id, { hits: sheet.field.hits, stage: sheet.field.stage });
      workflowId = await publishDirect(ctx, trigger, nodes, NOW, { name: 'Expense approval', showsProcess: true });
      passed = await createRecord(ctx, sheet, [{ id: 'title', value: 'Laptop' }]);
      expect(await rowOf(passed)).toMatchObject({
        _processName: '',
        _nodeAssignees: [],
        _initiatedBy: null,
        _initiatedAt: null,
        _nodeStartedAt: null,
        _approvalCompletedAt: null,
        _dueAt: null,
        _remainingTime: null,
        _processStatus: '',
      });
    });

    it('names the process, its initiator and its end once the run has passed', async () => {
      await ctx.app.jobs.runUntilIdle();
      const [run] = await runsOf(ctx, workflowId);
      expect(run.status).toBe('passed');
      const row = await rowOf(passed);
      expect(row).toMatchObject({
        _processName: 'Expense approval',
        _nodeAssignees: [],
        _initiatedBy: { accountId: run.initiator_id },
        _initiatedAt: iso(NOW),
        _nodeStartedAt: null,
        _approvalCompletedAt: iso(NOW),
        _dueAt: null,
        _remainingTime: null,
        _processStatus: 'pass',
      });
      // The process fields are not a write of the record: not updated by them.
      expect(row._updatedBy).toMatchObject({ accountId: 'user-workflow' });
    });

    it('shows who must act and by when, as a node assigning people sets them in its step', async () => {
      waiting = await createRecord(ctx, sheet, [{ id: 'title', value: 'Desk' }]);
      await ctx.database.db.transaction().execute((trx) =>
        noteProcessState(trx, ctx.database.dialect, sheet.id, waiting, { processName: 'Expense approval', processStatus: 'other', nodeAssignees: [ctx.setup.owner.accountId], nodeStartedAt: NOW, dueAt: NOW + 90 * 60_000 }),
      );
      expect(await rowOf(waiting)).toMatchObject({
        _processName: 'Expense approval',
        _nodeAssignees: [{ accountId: ctx.setup.owner.accountId, fullname: expect.any(String) }],
        _nodeStartedAt: iso(NOW),
        _dueAt: iso(NOW + 90 * 60_000),
        _remainingTime: 90,
        _processStatus: 'other',
      });
      const owner = ((await rowOf(waiting))._nodeAssignees as Array<{ fullname: string }>)[0];
      expect(owner.fullname).not.toBe('');
    });

    it('filters by every process field, under its V3 and its V2 name', async () => {
      expect(await idsOf({ filter: condition('_processStatus', 'eq', 'pass') })).toEqual([passed]);
      expect(await idsOf({ filter: condition('wfstatus', 'in', ['other']) })).toEqual([waiting]);
      expect(await idsOf({ filter: condition('_processName', 'contains', 'approval'), sorts: [{ field: 'autoid', isAsc: true }] })).toEqual([passed, waiting]);
      expect(await idsOf({ filter: condition('_nodeAssignees', 'eq', [ctx.setup.owner.accountId]) })).toEqual([waiting]);
      expect(await idsOf({ filter: condition('_remainingTime', 'isnotempty') })).toEqual([waiting]);
      expect(await idsOf({ filter: condition('wfcotime', 'isnotempty') })).toEqual([passed]);
      expect(await idsOf({ filter: condition('_initiatedAt', 'isempty') })).toEqual([waiting]);
    });

    it('refuses a process status that is none of the four, naming the field', async () => {
      const refused = await list({ filter: condition('_processStatus', 'eq', 'approved') });
      expect(refused.status).toBe(400);
      expect(refused.body.error_msg).toContain('process status');
      expect(refused.body.error_msg).toContain('pass, refuse, abort, other');
    });

    it('sorts by the process times and status (by _dueAt for _remainingTime), not by the assignees', async () => {
      expect(await idsOf({ sorts: [{ field: '_remainingTime', isAsc: false }] })).toEqual([waiting, passed]);
      expect(await idsOf({ sorts: [{ field: '_approvalCompletedAt', isAsc: false }] })).toEqual([passed, waiting]);
      expect(await idsOf({ sorts: [{ field: 'wfstatus', isAsc: true }] })).toEqual([waiting, passed]);
      const refused = await list({ sorts: [{ field: '_nodeAssignees', isAsc: true }] });
      expect(refused.status).toBe(400);
    });

    it('counts a filtered total afresh after a process field changed', async () => {
      const before = await list({ filter: condition('_processStatus', 'eq', 'pass') });
      expect(before.body.data.total).toBe(1);
      await ctx.database.db.transaction().execute((trx) => noteProcessState(trx, ctx.database.dialect, sheet.id, waiting, { processStatus: 'pass', nodeAssignees: [], dueAt: null }));
      const after = await list({ filter: condition('_processStatus', 'eq', 'pass') });
      expect(after.body.data.total).toBe(2);
      expect((await rowOf(waiting))._nodeAssignees).toEqual([]);
    });

    it('leaves records alone for workflows that do not show their process', async () => {
      const other = await makeSheet(ctx, 'Plain', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Hits', alias: 'hits', type: '2' },
        { name: 'Stage', alias: 'stage', type: '2' },
      ]);
      const { trigger, nodes } = counterWorkflow(other.id, { hits: other.field.hits, stage: other.field.stage });
      await publishDirect(ctx, trigger, nodes, NOW);
      const id = await createRecord(ctx, other, [{ id: 'title', value: 'x' }]);
      await ctx.app.jobs.runUntilIdle();
      const answer = await ctx.call<FlatRow>('GET', `/v3/app/worksheets/${other.id}/rows/${id}?useFieldIdAsKey=true&includeSystemFields=true`);
      expect(answer.body.data).toMatchObject({ [other.field.stage]: 'done', _processName: '', _processStatus: '' });
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW },
);
