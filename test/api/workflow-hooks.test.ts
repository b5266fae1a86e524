import { expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';
import { callAndRun, node, publishDirect } from '../helpers/workflow-fixtures.js';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { newGuid } from '../../src/shared/ids.js';
import { TriggerType } from '../../src/workflow/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const START = 'start_h1';
const input = (fieldId: string) => ({ kind: 'field' as const, node: START, fieldId });

/** The API process of these tests: typed inputs, one output; it writes `note` into the record `rowId`. */
const API_INPUTS = [
  { name: 'rowId', type: 'text', required: true, desc: 'The record to note' },
  { name: 'note', alias: 'remark', type: 'text', required: true, desc: '' },
  { name: 'amount', type: 'number', required: false, desc: '' },
  { name: 'due', type: 'date', required: false, desc: '' },
  { name: 'urgent', type: 'checkbox', required: false, desc: '' },
  { name: 'level', type: 'radio', required: false, desc: '', options: [{ key: 'l1', value: 'Low' }, { key: 'l2', value: 'High' }] },
  { name: 'owners', type: 'member', required: false, desc: '' },
  { name: 'teams', type: 'department', required: false, desc: '' },
  { name: 'tags', type: 'array', required: false, desc: '' },
  { name: 'lines', type: 'object_array', required: false, desc: '', children: [{ name: 'sku', type: 'text', required: true, desc: '' }, { name: 'qty', type: 'number', required: false, desc: '' }] },
  { name: 'source', type: 'text', required: false, desc: '', default: 'api' },
];

/** A member of the organization (no role in the application) with a token of every scope. */
async function member(ctx: ApiContext): Promise<{ id: string; headers: Record<string, string> }> {
  const id = newGuid();
  await ctx.database.db.insertInto('accounts').values({ id, organization_id: ctx.setup.organizationId, email: `hooks-${ctx.engine}@example.com`, fullname: 'Hook Caller', password_hash: null, status: 1, created_at: NOW }).execute();
  await ctx.database.db.insertInto('organization_members').values({ organization_id: ctx.setup.organizationId, account_id: id, is_admin: 0, status: 1, joined_at: NOW }).execute();
  const { token } = await createToken(ctx.database.db, id, { scopes: 'all' }, NOW);
  return { id, headers: { authorization: `Bearer ${token}`, [`${ctx.config.headerPrefix}-Appid`]: ctx.setup.app.appId } };
}

describeApi(
  'workflow processes and hooks: API-callable processes, inputs checked, outputs answered; run history',
  (ctx) => {
    let sheet: Sheet;
    let apiProcess: string;
    let webhook: string;
    let closed: string;
    let recordTriggered: string;
    let rowId: string;

    it('sets up processes of each kind', async () => {
      sheet = await makeSheet(ctx, 'Orders', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Notes', alias: 'notes', type: '2' },
      ]);
      rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'O-1' }]);
      apiProcess = await publishDirect(
        ctx,
        { type: TriggerType.api, alias: START, worksheetId: null, config: { inputs: API_INPUTS, outputs: [{ name: 'total', type: 'number', required: false, desc: 'The sum' }] } },
        [
          node('note_it', 'update_record', { worksheetId: sheet.id, record: input('rowId'), fields: [{ fieldId: sheet.field.notes, value: input('remark') }] }, START),
          node('doubled', 'compute', { mode: 'number', expression: `$${START}-amount$ * 2` }, 'note_it'),
          node('out', 'return', { outputs: { total: { kind: 'field', node: 'doubled', fieldId: 'value' } } }, 'doubled'),
        ],
        NOW,
      );
      webhook = await publishDirect(ctx, { type: TriggerType.webhook, alias: START, worksheetId: null, config: { sample: { order: 'O-9', qty: 2 }, params: [{ name: 'order', type: 'text', required: false, desc: '' }, { name: 'qty', type: 'number', required: false, desc: '' }] } }, [], NOW + 1);
      closed = await publishDirect(ctx, { type: TriggerType.webhook, alias: START, worksheetId: null, config: { params: [] } }, [], NOW + 2);
      await ctx.database.db.updateTable('workflows').set({ status: 'closed' }).where('id', '=', closed).execute();
      recordTriggered = await publishDirect(ctx, { type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'delete' } }, [], NOW + 3);
    });

    it('lists only the processes the API can trigger, as the public list shows them', async () => {
      const listed = await ctx.call<{ processes: Array<Record<string, unknown>> }>('GET', '/v3/app/workflow/processes');
      expect(listed.body.error_msg).toBe('');
      expect(listed.body.data.processes).toEqual([
        { id: apiProcess, name: 'Test flow', alias: START, type: 10, description: '', status: 1, _createdAt: new Date(NOW).toISOString(), _updatedAt: new Date(NOW).toISOString(), _owner: { accountId: 'user-api', fullname: expect.any(String), avatar: '' } },
        expect.objectContaining({ id: webhook, type: 6, status: 1 }),
        expect.objectContaining({ id: closed, type: 6, status: 0 }),
      ]);
    });

    it("gives a process's input and output parameters with field-code types", async () => {
      const detail = await ctx.call<{ inputParameters: Array<Record<string, unknown>>; outputParameters: unknown[] }>('GET', `/v3/app/workflow/processes/${apiProcess}`);
      expect(detail.body.error_msg).toBe('');
      const byName = new Map(detail.body.data.inputParameters.map((p) => [p.name, p]));
      expect(byName.get('rowId')).toEqual({ id: 'rowId', name: 'rowId', alias: '', type: 2, description: 'The record to note', required: true, options: [], items: [] });
      expect(byName.get('note')).toMatchObject({ alias: 'remark', required: true });
      expect([...byName.values()].map((p) => p.type)).toEqual([2, 2, 6, 16, 36, 9, 26, 27, 10000007, 10000008, 2]);
      expect(byName.get('level')!.options).toEqual([{ key: 'l1', value: 'Low' }, { key: 'l2', value: 'High' }]);
      expect(byName.get('lines')!.items).toEqual([
        { id: 'sku', name: 'sku', alias: '', type: 2, description: '', required: true, options: [], items: [] },
        { id: 'qty', name: 'qty', alias: '', type: 6, description: '', required: false, options: [], items: [] },
      ]);
      expect(detail.body.data.outputParameters).toEqual([{ id: 'total', name: 'total', type: 6, description: 'The sum', items: [] }]);
      const webhookDetail = await ctx.call<{ inputParameters: Array<{ name: string; type: number }> }>('GET', `/v3/app/workflow/processes/${webhook}`);
      expect(webhookDetail.body.data.inputParameters.map((p) => [p.name, p.type])).toEqual([
        ['order', 2],
        ['qty', 6],
      ]);
      const notHook = await ctx.call('GET', `/v3/app/workflow/processes/${recordTriggered}`);
      expect([notHook.status, notHook.body.error_code]).toEqual([404, 10007]);
    });

    it('refuses inputs that are missing or of the wrong kind, naming them, and starts no run', async () => {
      const hook = (body: unknown) => ctx.call('POST', `/v3/app/workflow/hooks/${apiProcess}`, body);
      const refusals: Array<[unknown, number, string]> = [
        [{ note: 'x' }, 10001, 'rowId is required'],
        [{ rowId, note: 'x', amount: 'lots' }, 10002, 'amount: expected a number'],
        [{ rowId, note: 'x', due: '25/11/2026' }, 10002, 'due: expected a date'],
        [{ rowId, note: 'x', urgent: 'maybe' }, 10002, 'urgent: expected a checkbox value'],
        [{ rowId, note: 'x', level: 'Medium' }, 10002, 'level: "Medium" is not an option; options are "Low", "High"'],
        [{ rowId, note: 'x', owners: [7] }, 10002, 'owners: expected member account ids'],
        [{ rowId, note: 'x', tags: 'a,b' }, 10002, 'tags: expected a list'],
        [{ rowId, note: 'x', lines: [{ sku: 'A' }, { qty: 2 }] }, 10001, 'lines[1].sku is required'],
        [{ rowId, note: 'x', colour: 'red' }, 10001, 'colour: no such input'],
        [[1, 2], 10001, 'body'],
      ];
      for (const [body, code, message] of refusals) {
        const refused = await hook(body);
        expect([refused.status, refused.body.error_code, refused.body.error_msg]).toEqual([400, code, expect.stringContaining(message)]);
      }
      const runs = await ctx.call<{ total: number }>('GET', `/v3/app/workflows/${apiProcess}/runs`);
      expect(runs.body.data.total).toBe(0);
      const closedCall = await ctx.call('POST', `/v3/app/workflow/hooks/${closed}`, {});
      expect([closedCall.status, closedCall.body.error_code]).toEqual([400, 10002]);
    });

    it('starts the process with its inputs and answers its outputs when it ends in time', async () => {
      const answered = await callAndRun<Record<string, unknown>>(ctx, apiProcess, { rowId, remark: 'from the hook', amount: '12.5', due: '2026-12-01 08:30', urgent: 1, level: 'l2', owners: 'acc-1', tags: ['a', 1], lines: [{ sku: 'A', qty: '3' }] });
      expect(answered.body.error_msg).toBe('');
      // The return node's outputs.
      expect(answered.body.data).toEqual({ total: 25 });
      expect(valueOf(await readRecord(ctx, sheet, rowId), sheet.field.notes)).toBe('from the hook');
      const runs = await ctx.call<{ runs: Array<{ id: string; status: string; initiatorId: string; trigger: { inputs: Record<string, unknown> } }> }>('GET', `/v3/app/workflows/${apiProcess}/runs`);
      expect(runs.body.data.runs).toHaveLength(1);
      expect(runs.body.data.runs[0]).toMatchObject({ status: 'passed', initiatorId: 'user-api' });
      expect(runs.body.data.runs[0].trigger.inputs).toEqual({ rowId, note: 'from the hook', amount: 12.5, due: '2026-12-01 08:30', urgent: true, level: 'High', owners: ['acc-1'], tags: ['a', 1], lines: [{ sku: 'A', qty: 3 }], source: 'api' });
    });

    it('keeps a webhook body as sent beside its typed parameters', async () => {
      const answered = await callAndRun<Record<string, unknown>>(ctx, webhook, { order: 'O-7', qty: '4', extra: { deep: true } });
      expect(answered.body.data).toEqual({});
      const runs = await ctx.call<{ runs: Array<{ trigger: { inputs: unknown } }> }>('GET', `/v3/app/workflows/${webhook}/runs`);
      expect(runs.body.data.runs[0].trigger.inputs).toEqual({ order: 'O-7', qty: 4, extra: { deep: true } });
    });

    it('answers a run that ends failed with 99999 naming the run; its history shows the failed step and its error', async () => {
      const failed = await callAndRun(ctx, apiProcess, { rowId: 'no-such-row', note: 'x' });
      expect([failed.status, failed.body.error_code]).toEqual([500, 99999]);
      expect(failed.body.error_msg).toMatch(/^run \S+ of process "Test flow" ended failed: note_it: /);
      const runId = /^run (\S+)/.exec(failed.body.error_msg)![1];
      const detail = await ctx.call<{ status: string; error: string; currentNode: string; steps: Array<Record<string, unknown>> }>('GET', `/v3/app/workflows/${apiProcess}/runs/${runId}`);
      expect(detail.body.error_msg).toBe('');
      expect(detail.body.data).toMatchObject({ status: 'failed', currentNode: 'note_it', error: expect.stringContaining('note_it: ') });
      expect(detail.body.data.steps.map((s) => [s.seq, s.nodeAlias, s.nodeType, s.status, s.exit])).toEqual([
        [1, START, 'trigger', 'done', 'next'],
        [2, 'note_it', 'update_record', 'failed', null],
      ]);
      const [trigger, step] = detail.body.data.steps;
      expect(trigger.output).toMatchObject({ kind: 'hook', fields: { rowId: 'no-such-row', note: 'x', remark: 'x' } });
      expect(step.error).toEqual(expect.any(String));
      expect(step).toMatchObject({ startedAt: new Date(NOW).toISOString(), endedAt: new Date(NOW).toISOString(), durationMs: 0 });
    });

    it('lists runs newest first, paged, filtered by status (names or public numbers)', async () => {
      const list = (query: string) => ctx.call<{ runs: Array<{ status: string; instanceStatus: number }>; total: number; pageIndex: number; pageSize: number }>('GET', `/v3/app/workflows/${apiProcess}/runs${query}`);
      const all = await list('');
      expect(all.body.data.runs.map((r) => [r.status, r.instanceStatus])).toEqual([
        ['failed', 4],
        ['passed', 2],
      ]);
      expect((await list('?status=passed')).body.data.runs.map((r) => r.status)).toEqual(['passed']);
      expect((await list('?status=4')).body.data.runs.map((r) => r.status)).toEqual(['failed']);
      expect((await list('?pageSize=1&pageIndex=2')).body.data).toMatchObject({ total: 2, pageIndex: 2, pageSize: 1, runs: [{ status: 'passed' }] });
      const bad = await list('?status=finished');
      expect([bad.body.error_code, bad.body.error_msg]).toEqual([10002, expect.stringContaining('status: unknown status "finished"')]);
      const missing = await ctx.call('GET', `/v3/app/workflows/${apiProcess}/runs/nope`);
      expect([missing.status, missing.body.error_code]).toEqual([404, 10007]);
      expect((await ctx.call('GET', '/v3/app/workflows/nope/runs')).body.error_code).toBe(10007);
    });

    it('lets a member trigger a process (the run is theirs) but not read run history', async () => {
      const caller = await member(ctx);
      const started = await callAndRun(ctx, webhook, { order: 'O-8' }, caller.headers);
      expect(started.body.error_msg).toBe('');
      const history = await ctx.call('GET', `/v3/app/workflows/${webhook}/runs`, undefined, caller.headers);
      expect([history.status, history.body.error_code]).toEqual([403, 10005]);
      const runs = await ctx.call<{ runs: Array<{ initiatorId: string }> }>('GET', `/v3/app/workflows/${webhook}/runs`);
      expect(runs.body.data.runs[0].initiatorId).toBe(caller.id);
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW },
);

describeApi(
  'workflow hooks: a run that does not end within the wait answers its id',
  (ctx) => {
    it('answers {runId} at once with WORKFLOW_HOOK_WAIT_MS=0; the run goes on and is in the history', async () => {
      const process = await publishDirect(ctx, { type: TriggerType.webhook, alias: START, worksheetId: null, config: { params: [] } }, [], NOW);
      const answered = await ctx.call<{ runId: string }>('POST', `/api/v3/app/workflow/hooks/${process}`, { any: 'thing' });
      expect(answered.body.error_msg).toBe('');
      expect(Object.keys(answered.body.data)).toEqual(['runId']);
      const queued = await ctx.call<{ status: string }>('GET', `/v3/app/workflows/${process}/runs/${answered.body.data.runId}`);
      expect(queued.body.data.status).toBe('queued');
      await ctx.app.jobs.runUntilIdle();
      const ended = await ctx.call<{ status: string }>('GET', `/v3/app/workflows/${process}/runs/${answered.body.data.runId}`);
      expect(ended.body.data.status).toBe('passed');
      // A process without inputs may be called without a body.
      const bare = await ctx.call<{ runId: string }>('POST', `/v3/app/workflow/hooks/${process}`);
      expect([bare.body.error_msg, Object.keys(bare.body.data)]).toEqual(['', ['runId']]);
    });
  },
  { WORKERS: '0', WORKFLOW_HOOK_WAIT_MS: '0' },
  { clock: () => NOW },
);
