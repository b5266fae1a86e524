import { beforeEach, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';
import { node, publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { TriggerType } from '../../src/workflow/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const START = 'start_n1';
let now = NOW;

const field = (node: string, fieldId: string) => ({ kind: 'field' as const, node, fieldId });
const literal = (value: unknown) => ({ kind: 'literal' as const, value });
const onCreate = (sheet: Sheet) => ({ type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } });

describeApi(
  'workflow node types: records, compute, rollup, delay, code, sub-process, return',
  (ctx) => {
    let requests: Sheet;
    let orders: Sheet;
    let summaries: Sheet;

    // Each test has a requests worksheet of its own: only its workflows listen to it.
    beforeEach(async () => {
      requests = await makeSheet(ctx, 'Requests', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Min', alias: 'min', type: '6' },
        { name: 'Due', alias: 'due', type: '16' },
        { name: 'Result', alias: 'result', type: '2' },
      ]);
    });

    it('sets up orders and summaries', async () => {
      orders = await makeSheet(ctx, 'Orders', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Amount', alias: 'amount', type: '6' },
      ]);
      summaries = await makeSheet(ctx, 'Summaries', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Total', alias: 'total', type: '6' },
        { name: 'Count', alias: 'count', type: '6' },
        { name: 'Doubled', alias: 'doubled', type: '6' },
      ]);
      for (const [title, amount] of [['A', 5], ['B', 50], ['C', 500], ['D', 5000]] as const) await createRecord(ctx, orders, [{ id: 'title', value: title }, { id: 'amount', value: amount }]);
    });

    it('finds records by a filter whose value refers to the trigger, rolls them up, computes, adds a record, deletes the found ones and returns outputs', async () => {
      const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: orders.field.amount, operator: 'ge', value: field(START, requests.field.min) }] };
      const flow = await publishDirect(
        ctx,
        onCreate(requests),
        [
          node('many', 'get_multiple', { worksheetId: orders.id, filter, sorts: [{ field: orders.field.amount, isAsc: false }], limit: 10 }, START),
          node('total', 'rollup', { method: 'sum', source: { kind: 'node', node: 'many' }, fieldId: orders.field.amount }, 'many'),
          node('doubled', 'compute', { mode: 'number', expression: '$total-value$ * 2 + $many-count$' }, 'total'),
          node('add', 'create_record', { worksheetId: summaries.id, fields: [{ fieldId: summaries.field.title, value: { kind: 'template', value: 'Over $start_n1-' + requests.field.min + '$' } }, { fieldId: summaries.field.total, value: field('total', 'value') }, { fieldId: summaries.field.count, value: field('many', 'count') }, { fieldId: summaries.field.doubled, value: field('doubled', 'number_fx_id') }] }, 'doubled'),
          node('remove', 'delete_record', { worksheetId: orders.id, record: field('many', 'rowIds') }, 'add'),
          node('done', 'return', { outputs: { summary: { kind: 'record', node: 'add' }, removed: field('remove', 'count') } }, 'remove'),
          node('never', 'update_record', { worksheetId: requests.id, record: { kind: 'record', node: START }, fields: [{ fieldId: requests.field.result, value: literal('not reached') }] }, 'done'),
        ],
        NOW,
      );
      const request = await createRecord(ctx, requests, [{ id: 'title', value: 'R1' }, { id: 'min', value: 50 }]);
      await ctx.app.jobs.runUntilIdle();
      const [run] = await runsOf(ctx, flow);
      expect([run.status, run.error]).toEqual(['passed', null]);
      expect(run.steps.map((s) => s.node_alias)).toEqual([START, 'many', 'total', 'doubled', 'add', 'remove', 'done']);
      const many = JSON.parse(run.steps[1].output!) as { count: number; rowIds: string[]; records: unknown[] };
      expect(many.count).toBe(3);
      const summaryId = (JSON.parse(run.steps[4].output!) as { rowId: string }).rowId;
      expect(JSON.parse(run.outputs!)).toEqual({ summary: summaryId, removed: 3 });
      const summary = await readRecord(ctx, summaries, summaryId);
      expect([valueOf(summary, summaries.field.title), Number(valueOf(summary, summaries.field.total)), Number(valueOf(summary, summaries.field.count)), Number(valueOf(summary, summaries.field.doubled))]).toEqual(['Over 50', 5550, 3, 11103]);
      const left = await ctx.call<{ rows: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { pageSize: 100, pageIndex: 1 });
      expect(left.body.data.rows).toHaveLength(1);
      expect(many.rowIds).not.toContain(left.body.data.rows[0].id);
      expect(valueOf(await readRecord(ctx, orders, left.body.data.rows[0].id), orders.field.title)).toBe('A');
      expect(valueOf(await readRecord(ctx, requests, request), requests.field.result)).toBe('');
    });

    it('waits on a timer for a delay, survives as a queued job, and goes on when the time comes', async () => {
      const flow = await publishDirect(
        ctx,
        onCreate(requests),
        [
          node('wait_hour', 'delay', { for: { hours: 1 } }, START),
          node('wait_due', 'delay', { until: { date: field(START, requests.field.due), offset: { minutes: -30 } } }, 'wait_hour'),
          node('mark', 'update_record', { worksheetId: requests.id, record: { kind: 'record', node: START }, fields: [{ fieldId: requests.field.result, value: { kind: 'template', value: 'done at $system-nowTime$' } }] }, 'wait_due'),
        ],
        NOW,
      );
      const id = await createRecord(ctx, requests, [{ id: 'title', value: 'Later' }, { id: 'due', value: '2026-11-25T12:00:00Z' }]);
      await ctx.app.jobs.runUntilIdle();
      let [run] = await runsOf(ctx, flow);
      expect([run.status, run.cursor, run.steps.at(-1)!.status]).toEqual(['waiting', 'wait_hour', 'waiting']);
      const timers = await ctx.database.db.selectFrom('background_jobs').select(['run_at', 'status']).execute();
      expect(timers.map((t) => Number(t.run_at))).toEqual([NOW + 3_600_000]);
      now = NOW + 3_600_000 - 1;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      now = NOW + 3_600_000;
      await ctx.app.jobs.runUntilIdle();
      [run] = await runsOf(ctx, flow);
      expect([run.status, run.cursor]).toEqual(['waiting', 'wait_due']);
      now = Date.UTC(2026, 10, 25, 11, 30);
      await ctx.app.jobs.runUntilIdle();
      [run] = await runsOf(ctx, flow);
      expect(run.status).toBe('passed');
      expect(run.steps.map((s) => [s.node_alias, s.status, JSON.parse(s.output ?? '{}').until ?? null])).toEqual([
        [START, 'done', null],
        ['wait_hour', 'done', '2026-11-25T10:00:00.000Z'],
        ['wait_due', 'done', '2026-11-25T11:30:00.000Z'],
        ['mark', 'done', null],
      ]);
      expect(valueOf(await readRecord(ctx, requests, id), requests.field.result)).toBe('done at 2026-11-25T11:30:00.000Z');
      now = NOW;
    });

    it('runs code in the sandbox and writes what it returns; a runaway script fails the run, saying why', async () => {
      const flow = await publishDirect(
        ctx,
        onCreate(requests),
        [
          node('js', 'code', { code: 'if (input.title === "loop") { for (;;) {} } return { text: input.title.split("").reverse().join("") + ":" + (input.min * 3) };', inputs: { title: field(START, requests.field.title), min: field(START, requests.field.min) }, timeoutMs: 100 }, START),
          node('mark', 'update_record', { worksheetId: requests.id, record: { kind: 'record', node: START }, fields: [{ fieldId: requests.field.result, value: field('js', 'text') }] }, 'js'),
        ],
        NOW,
      );
      const ok = await createRecord(ctx, requests, [{ id: 'title', value: 'abc' }, { id: 'min', value: 7 }]);
      const loop = await createRecord(ctx, requests, [{ id: 'title', value: 'loop' }]);
      await ctx.app.jobs.runUntilIdle();
      expect(valueOf(await readRecord(ctx, requests, ok), requests.field.result)).toBe('cba:21');
      const failed = (await runsOf(ctx, flow)).find((r) => r.row_id === loop)!;
      expect([failed.status, failed.error]).toEqual(['failed', 'js: the code ran longer than 100 ms']);
      expect(failed.steps.at(-1)).toMatchObject({ node_alias: 'js', status: 'failed', error: 'the code ran longer than 100 ms' });
    });

    it('starts an API-callable workflow as a sub-process, waits for its end and reads its outputs; without waiting goes on at once', async () => {
      const CHILD = 'child_start';
      const child = await publishDirect(
        ctx,
        { type: TriggerType.api, alias: CHILD, worksheetId: null, config: { inputs: [{ name: 'n', type: 'number', required: true }] } },
        [node('times', 'compute', { mode: 'number', expression: `$${CHILD}-n$ * 10` }, CHILD), node('out', 'return', { outputs: { result: field('times', 'value') } }, 'times')],
        NOW,
      );
      const parent = await publishDirect(
        ctx,
        onCreate(requests),
        [
          node('sub', 'sub_process', { workflowId: child, inputs: { n: field(START, requests.field.min) }, wait: true }, START),
          node('mark', 'update_record', { worksheetId: requests.id, record: { kind: 'record', node: START }, fields: [{ fieldId: requests.field.result, value: { kind: 'template', value: 'child said $sub-result$ ($sub-status$)' } }] }, 'sub'),
          node('fire', 'sub_process', { workflowId: child, inputs: { n: literal(1) } }, 'mark'),
        ],
        NOW,
      );
      const id = await createRecord(ctx, requests, [{ id: 'title', value: 'Parent' }, { id: 'min', value: 4 }]);
      await ctx.app.jobs.runUntilIdle();
      const [run] = await runsOf(ctx, parent);
      expect([run.status, run.error]).toEqual(['passed', null]);
      expect(valueOf(await readRecord(ctx, requests, id), requests.field.result)).toBe('child said 40 (passed)');
      const children = await runsOf(ctx, child);
      expect(children.map((c) => [c.status, JSON.parse(c.outputs!), c.chain_depth])).toEqual([
        ['passed', { result: 40 }, 1],
        ['passed', { result: 10 }, 1],
      ]);
      expect(JSON.parse(run.steps.find((s) => s.node_alias === 'fire')!.output!)).toMatchObject({ runId: children[1].id });
    });

    it('fails a parent whose sub-process fails, and refuses to start a workflow that is not API-callable or lacks a required input', async () => {
      const CHILD = 'bad_start';
      const child = await publishDirect(ctx, { type: TriggerType.api, alias: CHILD, worksheetId: null, config: { inputs: [{ name: 'n', required: true }] } }, [node('boom', 'code', { code: 'throw new Error("no")' }, CHILD)], NOW);
      const parent = await publishDirect(
        ctx,
        onCreate(requests),
        [node('sub', 'sub_process', { workflowId: child, inputs: { n: field(START, requests.field.title) }, wait: true }, START)],
        NOW,
      );
      const missing = await publishDirect(ctx, onCreate(requests), [node('sub', 'sub_process', { workflowId: child, inputs: {} }, START)], NOW);
      const notApi = await publishDirect(ctx, onCreate(requests), [node('sub', 'sub_process', { workflowId: parent }, START)], NOW);
      await createRecord(ctx, requests, [{ id: 'title', value: 'Bad' }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await runsOf(ctx, child)).map((r) => [r.status, r.error])).toEqual([['failed', 'boom: the code threw Error: no']]);
      expect((await runsOf(ctx, parent)).map((r) => [r.status, r.error])).toEqual([['failed', expect.stringMatching(/^sub: the sub-process run [\w-]+ failed$/)]]);
      expect((await runsOf(ctx, missing)).map((r) => r.error)).toEqual(['sub: the workflow "Test flow" cannot start with these inputs: n is required']);
      expect((await runsOf(ctx, notApi)).map((r) => r.error)).toEqual(['sub: the workflow "Test flow" cannot be started by another workflow (its trigger is of type 1, not 17)']);
    });
  },
  { WORKERS: '0' },
  { clock: () => now, sweeps: false },
);
