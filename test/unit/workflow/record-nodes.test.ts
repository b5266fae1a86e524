import { describe, expect, it } from 'vitest';
import { resolveFilter } from '../../../src/workflow/filter-refs.js';
import { getMultipleNode } from '../../../src/workflow/node-types/get-multiple.js';
import { rollupNode } from '../../../src/workflow/node-types/rollup.js';
import { delayNode } from '../../../src/workflow/node-types/delay.js';
import { returnNode } from '../../../src/workflow/node-types/return.js';
import { subProcessNode } from '../../../src/workflow/node-types/sub-process.js';
import { valueAt } from '../../../src/workflow/json-path.js';
import { fakeCheck, fakeContext, NOW, outputOf } from './fake-node-context.js';

const outputs = {
  start: { rowId: 'r1', fields: { owner: [{ accountId: 'acc-7', fullname: 'Ann' }], kind: [{ key: 'k2', value: 'Big' }], min: '100', due: '2026-11-26 08:30' } },
  many: { count: 4, rowIds: ['a', 'b', 'c', 'd'], records: [{ rowId: 'a', fields: { f1: '10' } }, { rowId: 'b', fields: { f1: '2.5' } }, { rowId: 'c', fields: { f1: '' } }, { rowId: 'd', fields: { f1: null } }] },
};
const field = (fieldId: string) => ({ kind: 'field' as const, node: 'start', fieldId });

describe('record filters with value references', () => {
  it('resolves references in condition values (choices and members by key and id, arrays item by item) and leaves literals', () => {
    const filter = {
      type: 'group',
      logic: 'AND',
      children: [
        { type: 'condition', field: 'f1', operator: 'ge', value: field('min') },
        { type: 'condition', field: 'owner', operator: 'in', value: [field('owner'), 'acc-9'] },
        { type: 'condition', field: 'kind', operator: 'eq', value: field('kind') },
        { type: 'condition', field: 'f2', operator: 'eq', value: { kind: 'not a ref' } },
        { type: 'condition', field: 'f2', operator: 'isempty' },
      ],
    };
    expect(resolveFilter(filter, fakeContext(outputs).values)).toEqual({
      ...filter,
      children: [
        { type: 'condition', field: 'f1', operator: 'ge', value: '100' },
        { type: 'condition', field: 'owner', operator: 'in', value: ['acc-7', 'acc-9'] },
        { type: 'condition', field: 'kind', operator: 'eq', value: ['k2'] },
        { type: 'condition', field: 'f2', operator: 'eq', value: { kind: 'not a ref' } },
        { type: 'condition', field: 'f2', operator: 'isempty' },
      ],
    });
  });

  it('checks the fields a get_multiple filters and sorts by, and the nodes its values refer to', async () => {
    const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'nope', operator: 'eq', value: { kind: 'field', node: 'later', fieldId: 'x' } }, { type: 'condition', field: '_createdAt', operator: 'gt', value: '2026-01-01' }] };
    expect(await getMultipleNode.check!({ worksheetId: 'ws', filter, sorts: [{ field: 'f9', isAsc: true }] }, fakeCheck({ start: 'trigger' }))).toEqual([
      { path: 'filter.children[0].field', message: 'no field "nope" in the worksheet "Orders" (field ids, not aliases)' },
      { path: 'sorts[0].field', message: 'no field "f9" in the worksheet "Orders" (field ids, not aliases)' },
      { path: 'filter.children[0].value', message: 'refers to the node "later", which does not run before this one' },
    ]);
  });
});

describe('rollup node', () => {
  const ctx = fakeContext(outputs);
  it.each([
    ['count', 4],
    ['sum', 12.5],
    ['avg', 6.25],
    ['min', 2.5],
    ['max', 10],
    ['filled', 2],
    ['not_filled', 2],
  ] as const)('%s over a get_multiple node → %s', async (method, value) => {
    expect(outputOf(await rollupNode.run({ method, source: { kind: 'node', node: 'many' }, fieldId: 'f1' }, ctx))).toEqual({ value, number_fx_id: value, count: 4 });
  });

  it('reads a relation of a record through the records port', async () => {
    const related = fakeContext(outputs, { records: { ...ctx.records, related: (ws, rowId, fieldId, limit) => Promise.resolve(ws === 'ws' && rowId === 'r1' && fieldId === 'rel' && limit === 1000 ? [{ rowId: 'x', fields: { f1: 3 } }, { rowId: 'y', fields: { f1: 4 } }] : []) } });
    expect(outputOf(await rollupNode.run({ method: 'sum', source: { kind: 'relation', worksheetId: 'ws', record: { kind: 'record', node: 'start' }, fieldId: 'rel' }, fieldId: 'f1' }, related))).toMatchObject({ value: 7 });
  });

  it('needs a field except to count, and a get_multiple node before it', async () => {
    expect(await rollupNode.check!({ method: 'sum', source: { kind: 'node', node: 'start' } }, fakeCheck({ start: 'trigger' }))).toEqual([
      { path: 'fieldId', message: 'sum needs the field to aggregate' },
      { path: 'source.node', message: '"start" is a trigger node; a rollup reads the records of a get_multiple node' },
    ]);
    expect(await rollupNode.check!({ method: 'count', source: { kind: 'node', node: 'many' } }, fakeCheck({}))).toEqual([{ path: 'source.node', message: 'refers to the node "many", which does not run before this one' }]);
  });
});

describe('delay node', () => {
  const ctx = fakeContext(outputs);
  it('waits for a duration on a timer and goes on by next when it fires', async () => {
    const outcome = await delayNode.run({ for: { hours: 2, minutes: 30 } }, ctx);
    expect(outcome).toEqual({ wait: { until: NOW + 150 * 60_000, state: { until: NOW + 150 * 60_000 } } });
    expect(await delayNode.resume!({ for: { hours: 2 } }, { kind: 'timer', state: { until: NOW + 150 * 60_000 } }, ctx)).toEqual({ exit: 'next', output: { until: '2026-11-25T11:30:00.000Z' } });
  });

  it('waits until a date field plus an offset; a past or empty date goes on at once', async () => {
    expect(await delayNode.run({ until: { date: field('due'), offset: { hours: -1 } } }, ctx)).toEqual({ wait: { until: Date.UTC(2026, 10, 26, 7, 30), state: { until: Date.UTC(2026, 10, 26, 7, 30) } } });
    expect(await delayNode.run({ until: { date: field('due'), offset: { days: -2 } } }, ctx)).toEqual({ exit: 'next', output: { until: '2026-11-24T08:30:00.000Z' } });
    expect(await delayNode.run({ until: { date: field('nothing') } }, ctx)).toEqual({ exit: 'next', output: { until: null } });
  });

  it('refuses an empty duration and references to later nodes', async () => {
    expect(await delayNode.check!({ for: { days: 0 } }, fakeCheck())).toEqual([{ path: 'for', message: 'the duration must be longer than nothing' }]);
    expect(await delayNode.check!({ until: { date: field('due') } }, fakeCheck())).toEqual([{ path: 'until.date', message: 'refers to the node "start", which does not run before this one' }]);
  });
});

describe('return and sub-process nodes', () => {
  it('a return ends the run as passed with its outputs', async () => {
    expect(await returnNode.run({ outputs: { owner: field('owner'), fixed: { kind: 'literal', value: 3 } } }, fakeContext(outputs))).toEqual({
      exit: 'next',
      output: { owner: outputs.start.fields.owner, fixed: 3 },
      end: 'passed',
      runOutputs: { owner: outputs.start.fields.owner, fixed: 3 },
    });
  });

  it('a sub-process starts a run with its inputs and, when it waits, leaves with the run\'s end', async () => {
    const started: unknown[] = [];
    const ctx = fakeContext(outputs, { workflows: { startRun: (id, inputs, wait) => (started.push({ id, inputs, wait }), Promise.resolve({ runId: 'child-1' })) } });
    expect(await subProcessNode.run({ workflowId: 'wf-2', inputs: { who: field('owner') }, wait: true }, ctx)).toEqual({ wait: { state: { runId: 'child-1' } } });
    expect(await subProcessNode.run({ workflowId: 'wf-2' }, ctx)).toEqual({ exit: 'next', output: { runId: 'child-1' } });
    expect(started).toEqual([{ id: 'wf-2', inputs: { who: outputs.start.fields.owner }, wait: true }, { id: 'wf-2', inputs: {}, wait: false }]);
    expect(await subProcessNode.resume!({ workflowId: 'wf-2', wait: true }, { kind: 'signal', state: {}, signal: { runId: 'child-1', status: 'passed', outputs: { total: 3 } } }, ctx)).toEqual({ exit: 'next', output: { runId: 'child-1', status: 'passed', fields: { total: 3 } } });
    await expect(subProcessNode.resume!({ workflowId: 'wf-2', wait: true }, { kind: 'signal', state: {}, signal: { runId: 'child-1', status: 'failed', outputs: null } }, ctx)).rejects.toThrow('the sub-process run child-1 failed');
  });
});

describe('json paths', () => {
  it('finds values by dotted paths with array indexes', () => {
    const doc = { data: { items: [{ id: 7 }, { id: 8 }], 'x-y': true } };
    expect([valueAt(doc, 'data.items[1].id'), valueAt(doc, '$.data.items[0].id'), valueAt(doc, 'data.x-y'), valueAt(doc, 'data.none.id'), valueAt(doc, '$')]).toEqual([8, 7, true, undefined, doc]);
  });
});
