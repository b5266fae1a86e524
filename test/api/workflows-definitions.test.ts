import { nodeTypeNames } from '../../src/workflow/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { addKey } from '../../src/modules/setup/index.js';
import { newGuid } from '../../src/shared/ids.js';
import { worksheetListeners } from '../../src/workflow/index.js';
import { describeApi, type Envelope } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Workflow definitions over a real socket (public V3 facts §7.2–7.5): drafts with their trigger,
 * node batches (atomic, checked against each node type's schema and rules), deletions that keep
 * the chain whole, validation, publication into versions, discarding, closing, deleting.
 */

interface NodeOut {
  id: string;
  nodeAlias: string;
  nodeType: string;
  typeId: number | null;
  name: string;
  prevNode: string | null;
  parentNode: string | null;
  config: Record<string, unknown>;
}
interface WorkflowOut {
  id: string;
  processId: string;
  name: string;
  description: string;
  trigger: { type: number; alias: string; config: Record<string, unknown> };
  published: boolean;
  status: string;
  version: number;
  draftVersion: number;
  hasUnpublishedChanges: boolean;
  nodes: NodeOut[];
}
interface Created {
  id: string;
  processId: string;
  triggerAlias: string;
}

const NOW = Date.UTC(2025, 5, 2, 8, 0, 0);

describeApi(
  'workflow definitions',
  (ctx) => {
    let origin: string;
    let sheet: Sheet;

    /** Sends a request over the socket, as the first app's key unless `headers` say otherwise. */
    async function send<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Envelope<T> }> {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { ...(headers ?? ctx.auth), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Envelope<T> };
    }

    async function create(body: Record<string, unknown>): Promise<Created> {
      const response = await send<Created>('POST', '/v3/app/workflows', body);
      expect(response.body.error_msg).toBe('');
      return response.body.data;
    }

    async function structure(id: string, query = ''): Promise<WorkflowOut> {
      const response = await send<WorkflowOut>('GET', `/v3/app/workflows/${id}${query}`);
      expect(response.body.error_msg).toBe('');
      return response.body.data;
    }

    const batch = (id: string, nodes: unknown[]) => send<{ createdNodes: Array<{ id: string; nodeAlias: string; nodeType: string }> }>('POST', `/v3/app/workflows/${id}/nodes/batch`, { nodes });

    async function added(id: string, nodes: unknown[]) {
      const response = await batch(id, nodes);
      expect(response.body.error_msg).toBe('');
      return response.body.data.createdNodes;
    }

    const order = (workflow: WorkflowOut) => workflow.nodes.map((n) => n.nodeAlias);
    const links = (workflow: WorkflowOut) => Object.fromEntries(workflow.nodes.map((n) => [n.nodeAlias, [n.prevNode, n.parentNode]]));

    /** A worksheet-triggered workflow on the test sheet. */
    const onCreate = (name: string) => create({ name, description: 'test', trigger: { type: 1, config: { worksheetId: sheet.id, event: 'create' } } });

    /** An update_record node writing the amount of the trigger's record. */
    function update(alias: string, trigger: string, extra: Record<string, unknown> = {}, fieldId = sheet.field.amount) {
      return { nodeAlias: alias, nodeType: 'update_record', name: `Update ${alias}`, config: { worksheetId: sheet.id, record: { kind: 'record', node: trigger }, fields: [{ fieldId, value: { kind: 'literal', value: 1 } }] }, ...extra };
    }

    beforeAll(async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const address = ctx.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
      origin = `http://127.0.0.1:${address.port}`;
      sheet = await makeSheet(ctx, 'Expenses', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Amount', alias: 'amount', type: '6' },
        { name: 'Due', alias: 'due', type: '15' },
        { name: 'Paid', alias: 'paid', type: '36' },
      ]);
    });

    describe('the workflow and its trigger', () => {
      it('creates a draft with a system-assigned trigger alias and reads it back', async () => {
        const made = await create({ name: '  Expense approval ', description: 'Big ones', trigger: { type: 1, config: { worksheetId: sheet.id, event: 'create_or_update', triggerFields: ['amount'] } } });
        expect(made.id).toMatch(/^[0-9a-f]{24}$/);
        expect(made.processId).toBe(made.id);
        expect(made.triggerAlias).toMatch(/^start_[0-9a-f]{4}$/);
        const read = await structure(made.id);
        expect(read).toMatchObject({
          id: made.id,
          processId: made.id,
          name: 'Expense approval',
          description: 'Big ones',
          trigger: { type: 1, alias: made.triggerAlias, config: { worksheetId: sheet.id, event: 'create_or_update', triggerFields: [sheet.field.amount] } },
          published: false,
          status: 'draft',
          version: 0,
          draftVersion: 1,
          hasUnpublishedChanges: true,
          nodes: [],
        });
        const privateStyle = await send<WorkflowOut>('GET', `/api/v3/app/workflows/${made.id}`);
        expect(privateStyle.body.data.name).toBe('Expense approval');
      });

      it('reads trigger types by number or name, public flat keys, and each kind of config', async () => {
        const hook = await create({ name: 'Hook', trigger: { type: 'webhook', config: { sample: { amount: 12, who: 'ann', urgent: true, lines: [{ sku: 'a', qty: 2 }] } } } });
        expect((await structure(hook.id)).trigger).toMatchObject({
          type: 7,
          config: {
            params: [
              { name: 'amount', type: 'number' },
              { name: 'who', type: 'text' },
              { name: 'urgent', type: 'checkbox' },
              { name: 'lines', type: 'object_array', children: [{ name: 'sku', type: 'text' }, { name: 'qty', type: 'number' }] },
            ],
          },
        });
        const api = await create({ name: 'Api', triggerType: 17, triggerConfig: { inputs: [{ name: 'amount', type: 'number', required: true }, { name: 'level', type: 'radio', options: ['low', 'high'] }], outputs: [{ name: 'total', type: 'number' }] } });
        expect((await structure(api.id)).trigger).toMatchObject({
          type: 17,
          config: { inputs: [{ name: 'amount', type: 'number', required: true }, { name: 'level', type: 'radio', required: false, options: [{ key: 'low', value: 'low' }, { key: 'high', value: 'high' }] }], outputs: [{ name: 'total', type: 'number' }] },
        });
        const cron = await create({ name: 'Cron', trigger: { type: 'schedule', cron: '0 9 * * 1-5', timeZone: 'Asia/Shanghai' } });
        expect((await structure(cron.id)).trigger.config).toEqual({ cron: '0 9 * * 1-5', timeZone: 'Asia/Shanghai' });
        const repeat = await create({ name: 'Weekly', trigger: { type: 5, config: { repeat: 'week', interval: 2, week_days: ['mon', 5], start_time: '2025-06-02 09:30' } } });
        expect((await structure(repeat.id)).trigger.config).toEqual({ repeat: 'week', interval: 2, weekDays: [1, 5], startTime: '2025-06-02 09:30', timeZone: ctx.config.timeZone });
        const due = await create({ name: 'Due', trigger: { type: 'date_field', config: { worksheet: sheet.id, date_field_id: sheet.field.due, offset_type: 1, offset_number: 3, offset_unit: 'days', time: '08:30' } } });
        expect((await structure(due.id)).trigger.config).toEqual({ worksheetId: sheet.id, dateFieldId: sheet.field.due, offset: { direction: 'before', amount: 3, unit: 'day' }, time: '08:30', repeat: 'none' });
        const events = await create({ name: 'Public event id', trigger: { type: '1', config: { worksheetId: sheet.id, triggerId: 4 } } });
        expect((await structure(events.id)).trigger.config).toMatchObject({ event: 'update' });
      });

      it('saves a draft trigger without its required settings, but refuses settings that are wrong', async () => {
        const unbound = await create({ name: 'Unbound', trigger: { type: 1 } });
        expect((await structure(unbound.id)).trigger.config).toEqual({ triggerFields: [] });
        const cases: Array<[Record<string, unknown>, number, string]> = [
          [{ trigger: { type: 1 } }, 10001, 'name is required'],
          [{ name: 'x' }, 10001, 'trigger.type is required'],
          [{ name: 'x', trigger: { type: 'teleport' } }, 10002, 'unknown trigger type "teleport"; use 1 worksheet, 5 schedule, 6 date_field, 7 webhook, 17 api'],
          [{ name: 'x', trigger: { type: 8 } }, 10002, 'the custom action trigger (8) is not supported'],
          [{ name: 'x', trigger: { type: 1, config: { worksheetId: sheet.id, event: 'explode' } } }, 10002, 'trigger.config.event: unknown event "explode"'],
          [{ name: 'x', trigger: { type: 1, config: { worksheetId: 'nowhere', event: 'create' } } }, 10002, 'trigger.config.worksheetId: no worksheet "nowhere" in this application'],
          [{ name: 'x', trigger: { type: 1, config: { worksheetId: sheet.id, event: 'update', triggerFields: ['ghost'] } } }, 10002, 'trigger.config.triggerFields[0]: no field "ghost" in the worksheet "Expenses"'],
          [{ name: 'x', trigger: { type: 1, config: { worksheetId: sheet.id, event: 'create', filter: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: sheet.field.amount, operator: 'contains', value: 5 }] } } } }, 10002, 'trigger.config.filter.children[0]: "Amount": operator contains is not allowed on Number; use eq, ne'],
          [{ name: 'x', trigger: { type: 5, config: { cron: '61 * * * *' } } }, 10002, 'trigger.config.cron: "61 * * * *": Constraint error'],
          [{ name: 'x', trigger: { type: 5, config: { cron: '* * *' } } }, 10002, 'trigger.config.cron: "* * *" has 3 fields'],
          [{ name: 'x', trigger: { type: 5, config: { cron: '0 9 * * *', timeZone: 'Mars/Olympus' } } }, 10002, 'trigger.config.timeZone: unknown time zone "Mars/Olympus"'],
          [{ name: 'x', trigger: { type: 6, config: { worksheetId: sheet.id, dateFieldId: sheet.field.amount } } }, 10002, 'trigger.config.dateFieldId: "Amount" is a Number field; a date field'],
          [{ name: 'x', trigger: { type: 17, config: { inputs: [{ name: 'a', type: 'blob' }, { name: 'a', type: 'text' }] } } }, 10002, 'trigger.config.inputs[0].type: unknown type "blob"'],
        ];
        // Values of the wrong shape are named, never a 500.
        const wrongShapes: Array<[Record<string, unknown>, string]> = [
          [{ type: 1, config: { worksheetId: sheet.id, event: 'create', filter: 'nonsense' } }, 'trigger.config.filter'],
          [{ type: 1, config: { worksheetId: 42, event: 'update', triggerFields: 'amount' } }, 'trigger.config.worksheetId: must be a worksheet id or alias (a string)\ntrigger.config.triggerFields: must be a list of field ids'],
          [{ type: 5, config: { repeat: 'fortnight', interval: 0, weekDays: 'mon', startTime: 'soon' } }, 'trigger.config.repeat: unknown repeat "fortnight"'],
          [{ type: 5, config: { cron: 5 } }, 'trigger.config.cron: must be a cron expression'],
          [{ type: 6, config: { worksheetId: sheet.id, dateFieldId: sheet.field.due, offset: 5, time: '25:00', repeat: 'weekly' } }, 'trigger.config.offset: must be an object {direction, amount, unit}'],
          [{ type: 7, config: { sample: [1, 2] } }, 'trigger.config.sample: must be a JSON object'],
          [{ type: 17, config: { inputs: {}, outputs: [7] } }, 'trigger.config.inputs: must be a list of parameters\ntrigger.config.outputs[0]: must be an object {name, type, …}'],
          [{ type: 1, config: [] }, 'trigger.config must be an object'],
        ];
        for (const [trigger, message] of wrongShapes) {
          const response = await send('POST', '/v3/app/workflows', { name: 'shapes', trigger });
          expect(response.body.error_code, JSON.stringify(trigger)).toBe(10002);
          expect(response.body.error_msg).toContain(message);
        }
        for (const [body, code, message] of cases) {
          const response = await send('POST', '/v3/app/workflows', body);
          expect(response.body.error_code, JSON.stringify(body)).toBe(code);
          expect(response.body.error_msg).toContain(message);
          expect(response.status).toBe(400);
        }
        const duplicate = await send('POST', '/v3/app/workflows', cases[12][0]);
        expect(duplicate.body.error_msg).toContain('trigger.config.inputs[1]: the name or alias "a" is used twice');
      });

      it('changes the name, description and the draft trigger; a refused change leaves it as it was', async () => {
        const made = await onCreate('Before');
        const renamed = await send<WorkflowOut>('PATCH', `/v3/app/workflows/${made.id}`, { name: 'After', description: 'changed' });
        expect(renamed.body.data).toMatchObject({ name: 'After', description: 'changed', trigger: { type: 1 } });
        const retyped = await send<WorkflowOut>('PATCH', `/v3/app/workflows/${made.id}`, { trigger: { type: 'schedule', config: { cron: '*/15 * * * *' } } });
        expect(retyped.body.data.trigger).toEqual({ type: 5, alias: made.triggerAlias, config: { cron: '*/15 * * * *', timeZone: ctx.config.timeZone } });
        const refused = await send('PATCH', `/v3/app/workflows/${made.id}`, { name: 'Never', trigger: { config: { cron: 'nonsense here' } } });
        expect(refused.body.error_code).toBe(10002);
        expect(await structure(made.id)).toMatchObject({ name: 'After', trigger: { type: 5, config: { cron: '*/15 * * * *' } } });
        expect((await send('PATCH', `/v3/app/workflows/${'f'.repeat(24)}`, { name: 'x' })).body.error_code).toBe(10007);
      });
    });

    describe('nodes', () => {
      it('adds a chain and inserts between a node and its successor', async () => {
        const made = await onCreate('Chain');
        const first = await added(made.id, [update('a', made.triggerAlias, { prevNode: made.triggerAlias }), update('b', made.triggerAlias, { prevNode: { nodeAlias: 'a' } })]);
        expect(first.map((n) => [n.nodeAlias, n.nodeType])).toEqual([['a', 'update_record'], ['b', 'update_record']]);
        expect(first[0].id).toMatch(/^[0-9a-f]{24}$/);
        await added(made.id, [update('c', made.triggerAlias, { prevNode: { nodeId: first[0].id } })]);
        await added(made.id, [update('z', made.triggerAlias)]);
        const read = await structure(made.id);
        expect(order(read)).toEqual(['z', 'a', 'c', 'b']);
        expect(links(read)).toEqual({ z: [made.triggerAlias, null], a: ['z', null], c: ['a', null], b: ['c', null] });
        expect(read.nodes[1]).toMatchObject({ nodeType: 'update_record', typeId: 6, name: 'Update a', config: { worksheetId: sheet.id, fields: [{ fieldId: sheet.field.amount }] } });
      });

      it('refuses an unknown node type, naming the known ones', async () => {
        const made = await onCreate('Unknown type');
        const response = await batch(made.id, [{ nodeAlias: 'x', nodeType: 'teleport', config: {} }]);
        expect(response.status).toBe(400);
        expect(response.body.error_code).toBe(10002);
        expect(response.body.error_msg).toBe(`nodes[x].nodeType: unknown node type "teleport"; known types are ${nodeTypeNames().join(', ')}`);
        expect(nodeTypeNames()).toEqual(expect.arrayContaining(['branch', 'get_single', 'update_record', 'approval_block', 'approve']));
      });

      it('checks a sub-process node against the workflows of the application: it must exist and be API-callable', async () => {
        const made = await onCreate('Sub-process');
        const missing = await batch(made.id, [{ nodeAlias: 'sub', nodeType: 'sub_process', prevNode: made.triggerAlias, config: { workflowId: 'no-such-flow' } }]);
        expect(missing.body.error_msg).toBe('nodes[sub].config.workflowId: no workflow "no-such-flow" in this application');
        const notApi = await batch(made.id, [{ nodeAlias: 'sub', nodeType: 'sub_process', prevNode: made.triggerAlias, config: { workflowId: made.id } }]);
        expect(notApi.body.error_msg).toBe('nodes[sub].config.workflowId: "Sub-process" is not API-callable (trigger type 1, not 17)');
      });

      it('takes one recipient form in every node, still reads the earlier message forms, and keeps addresses to mail', async () => {
        const made = await onCreate('Recipients');
        const t = made.triggerAlias;
        const people = [{ kind: 'user', id: 'acc-1' }, { kind: 'role', id: 'r-1' }, { kind: 'field', node: t, fieldId: 'title' }, { kind: 'owner' }, { kind: 'supervisor' }];
        const earlier = [{ kind: 'user', accountId: 'acc-2' }, { kind: 'value', value: { kind: 'field', node: t, fieldId: 'title' } }];
        const created = await added(made.id, [
          { nodeAlias: 'tell', nodeType: 'send_internal_notice', prevNode: t, config: { to: [...people, ...earlier], title: 'x' } },
          { nodeAlias: 'mail', nodeType: 'send_email', prevNode: 'tell', config: { to: [...people, { kind: 'email', address: 'ops@example.com' }], cc: earlier, subject: 's', body: 'b' } },
          { nodeAlias: 'copy', nodeType: 'cc', prevNode: 'mail', config: { recipients: [...people, ...earlier] } },
        ]);
        expect(created.map((n) => n.nodeAlias)).toEqual(['tell', 'mail', 'copy']);
        // Kept as sent: the earlier forms are read as they are.
        expect((await structure(made.id)).nodes.find((n) => n.nodeAlias === 'tell')!.config).toMatchObject({ to: [...people, ...earlier] });
        const refused = await batch(made.id, [
          { nodeAlias: 'block', nodeType: 'approval_block', prevNode: 'copy', config: {} },
          { nodeAlias: 'ok_by', nodeType: 'approve', prevNode: null, parentNode: 'block', config: { approvers: [{ kind: 'email', address: 'boss@example.com' }] } },
          { nodeAlias: 'nobody', nodeType: 'cc', prevNode: 'block', config: { recipients: [{ kind: 'everyone' }, { kind: 'user' }] } },
        ]);
        expect(refused.body.error_msg.split('\n')).toEqual([
          'nodes[ok_by].config.approvers[0]: an approval goes to people: an email address is no recipient here',
          'nodes[nobody].config.recipients[0].kind: must be one of "user", "role", "department", "job", "orgRole", "field", "triggerUser", "owner", "supervisor", "email", "value"',
          'nodes[nobody].config.recipients[1].id: is required',
        ]);
      });

      it('names each config problem by its path, and a rejected batch writes nothing', async () => {
        const made = await onCreate('Atomic');
        const good = update('good', made.triggerAlias);
        const missing = update('missing', made.triggerAlias, { prevNode: 'good', config: { worksheetId: sheet.id, record: { kind: 'record', node: made.triggerAlias }, fields: [{ value: { kind: 'literal', value: 1 } }] } });
        const ghost = update('ghost_field', made.triggerAlias, { prevNode: 'missing' }, 'no_such_field');
        const kind = update('bad_kind', made.triggerAlias, { prevNode: 'ghost_field', config: { worksheetId: sheet.id, record: { kind: 'somewhere' }, fields: [{ fieldId: sheet.field.amount, value: { kind: 'field', node: 'later' } }] } });
        const response = await batch(made.id, [good, missing, ghost, kind]);
        expect(response.body.error_code).toBe(10002);
        expect(response.body.error_msg.split('\n')).toEqual([
          'nodes[missing].config.fields[0].fieldId: is required',
          'nodes[ghost_field].config.fields[0].fieldId: no field "no_such_field" in the worksheet "Expenses" (field ids, not aliases)',
          'nodes[bad_kind].config.record.kind: must be one of "field", "systemField", "literal", "record", "template", "empty"',
          'nodes[bad_kind].config.fields[0].value.fieldId: is required',
        ]);
        expect((await structure(made.id)).nodes).toEqual([]);
        const later = await batch(made.id, [update('early', made.triggerAlias, { config: { worksheetId: sheet.id, record: { kind: 'record', node: 'late' }, fields: [{ fieldId: sheet.field.amount, value: { kind: 'literal', value: 2 } }] } }), update('late', made.triggerAlias, { prevNode: 'early' })]);
        expect(later.body.error_msg).toBe('nodes[early].config.record: refers to the node "late", which does not run before this one');
        expect((await structure(made.id)).nodes).toEqual([]);
      });

      it('refuses reserved, duplicate and malformed aliases and references to nodes that do not exist', async () => {
        const made = await onCreate('Aliases');
        await added(made.id, [update('kept', made.triggerAlias)]);
        const cases: Array<[unknown[], string]> = [
          [[update('trigger', made.triggerAlias)], 'nodes[trigger].nodeAlias: "trigger" is reserved (trigger, sub_trigger, approval_trigger, approval_start)'],
          [[update('approval_start', made.triggerAlias)], 'nodes[approval_start].nodeAlias: "approval_start" is reserved'],
          [[update(made.triggerAlias, made.triggerAlias)], `nodes[${made.triggerAlias}].nodeAlias: "${made.triggerAlias}" is the trigger's alias`],
          [[update('kept', made.triggerAlias)], 'nodes[kept].nodeAlias: "kept" is already a node of this workflow'],
          [[update('twice', made.triggerAlias), update('twice', made.triggerAlias, { prevNode: 'kept' })], 'nodes[twice].nodeAlias: "twice" is already a node of this workflow'],
          [[update('NotSnake', made.triggerAlias)], 'nodes[NotSnake].nodeAlias: "NotSnake" is not snake_case'],
          [[{ ...update('x', made.triggerAlias), nodeAlias: undefined }], 'nodes[#0].nodeAlias: is required'],
          [[update('lost', made.triggerAlias, { prevNode: 'ghost' })], 'nodes[lost].prevNode: no node "ghost" in this workflow'],
          [[update('lost', made.triggerAlias, { parentNode: 'nowhere' })], 'nodes[lost].parentNode: no branch path or approval block "nowhere"'],
          [[update('lost', made.triggerAlias, { parentNode: 'kept' })], 'nodes[lost].parentNode: "kept" holds no nodes'],
        ];
        for (const [nodes, message] of cases) {
          const response = await batch(made.id, nodes);
          expect(response.body.error_code, message).toBe(10002);
          expect(response.body.error_msg).toContain(message);
        }
        expect(order(await structure(made.id))).toEqual(['kept']);
        const empty = await batch(made.id, []);
        expect(empty.body.error_code).toBe(10001);
      });

      it('puts nodes on branch paths, and deleting the branch deletes what is on them', async () => {
        const made = await onCreate('Branching');
        const condition = (node: string) => ({ logic: 'and', conditions: [{ left: { kind: 'field', node, fieldId: sheet.field.amount }, op: 'gt', right: { kind: 'literal', value: 1000 } }] });
        const branch = { nodeAlias: 'split', nodeType: 'branch', prevNode: made.triggerAlias, config: { paths: [{ alias: 'big', condition: condition(made.triggerAlias) }, { alias: 'small' }] } };
        await added(made.id, [branch, update('on_big', made.triggerAlias, { parentNode: 'big' }), update('big_two', made.triggerAlias, { prevNode: 'on_big' }), update('on_small', made.triggerAlias, { prevNode: 'split', parentNode: 'small' }), update('after', made.triggerAlias, { prevNode: 'split' })]);
        const read = await structure(made.id);
        expect(order(read)).toEqual(['split', 'on_big', 'big_two', 'on_small', 'after']);
        expect(links(read)).toEqual({ split: [made.triggerAlias, null], on_big: [null, 'big'], big_two: ['on_big', 'big'], on_small: [null, 'small'], after: ['split', null] });
        expect(read.nodes[0].typeId).toBe(1);

        const clash = await batch(made.id, [{ ...branch, nodeAlias: 'again', prevNode: 'after', config: { paths: [{ alias: 'after', condition: condition(made.triggerAlias) }, { alias: 'small' }] } }]);
        expect(clash.body.error_msg.split('\n')).toEqual(['nodes[again].config: the container alias "after" is the alias of a node', 'nodes[again].config: the container alias "small" is also a container of "split"']);
        const early = await batch(made.id, [{ ...branch, nodeAlias: 'looks_ahead', prevNode: 'after', config: { paths: [{ alias: 'p1', condition: condition('nobody') }, { alias: 'p2' }] } }]);
        expect(early.body.error_msg).toBe('nodes[looks_ahead].config.paths[0].condition: refers to the node "nobody", which does not run before this branch');
        const onePath = await batch(made.id, [{ ...branch, nodeAlias: 'thin', prevNode: 'after', config: { paths: [{ alias: 'only' }] } }]);
        expect(onePath.body.error_msg).toBe('nodes[thin].config.paths: must hold at least 2 items');
        const ambiguous = await batch(made.id, [update('where', made.triggerAlias, { parentNode: 'split' })]);
        expect(ambiguous.body.error_msg).toBe('nodes[where].parentNode: "split" has several paths (big, small); name one of them');
        const crossed = await batch(made.id, [update('crossed', made.triggerAlias, { prevNode: 'on_big', parentNode: 'small' })]);
        expect(crossed.body.error_msg).toBe('nodes[crossed].prevNode: "on_big" is inside "big", not inside "small"');

        const splitId = read.nodes[0].id;
        const deleted = await send<{ deletedNodes: Array<{ id: string; nodeAlias: string }> }>('DELETE', `/v3/app/workflows/${made.id}/nodes/${splitId}`);
        expect(deleted.body.data.deletedNodes.map((n) => n.nodeAlias).sort()).toEqual(['big_two', 'on_big', 'on_small', 'split']);
        expect(links(await structure(made.id))).toEqual({ after: [made.triggerAlias, null] });
      });

      it('deletes nodes one at a time and in batches, all or none, keeping the chain whole', async () => {
        const made = await onCreate('Deleting');
        const nodes = await added(made.id, [update('a', made.triggerAlias), update('b', made.triggerAlias, { prevNode: 'a' }), update('c', made.triggerAlias, { prevNode: 'b' }), update('d', made.triggerAlias, { prevNode: 'c' })]);
        const one = await send<{ deletedNodes: Array<{ nodeAlias: string }> }>('DELETE', `/v3/app/workflows/${made.id}/nodes/${nodes[1].id}`);
        expect(one.body.data.deletedNodes.map((n) => n.nodeAlias)).toEqual(['b']);
        expect(links(await structure(made.id))).toEqual({ a: [made.triggerAlias, null], c: ['a', null], d: ['c', null] });
        const unknown = await send('DELETE', `/v3/app/workflows/${made.id}/nodes`, { nodeIds: [nodes[2].id, 'ghost'] });
        expect(unknown.body.error_code).toBe(10007);
        expect(unknown.body.error_msg).toBe('node "ghost" does not exist in this workflow');
        expect(order(await structure(made.id))).toEqual(['a', 'c', 'd']);
        const several = await send<{ deletedNodes: Array<{ nodeAlias: string }> }>('DELETE', `/v3/app/workflows/${made.id}/nodes`, { nodeIds: [nodes[2].id, 'a'] });
        expect(several.body.data.deletedNodes.map((n) => n.nodeAlias).sort()).toEqual(['a', 'c']);
        expect(links(await structure(made.id))).toEqual({ d: [made.triggerAlias, null] });
      });
    });

    describe('validation and publication', () => {
      it('validate lists the problems of the trigger and of every node', async () => {
        const unbound = await create({ name: 'Unbound', trigger: { type: 1 } });
        const invalid = await send<{ valid: boolean; errors: Array<{ nodeAlias: string; path: string; message: string }> }>('POST', `/v3/app/workflows/${unbound.id}/validate`);
        expect(invalid.body.data).toEqual({
          valid: false,
          errors: [
            { nodeAlias: unbound.triggerAlias, path: 'config.worksheetId', message: 'is required: the worksheet whose records trigger the workflow' },
            { nodeAlias: unbound.triggerAlias, path: 'config.event', message: 'is required: create, update, create_or_update, delete' },
            { nodeAlias: unbound.triggerAlias, path: 'nodes', message: 'the workflow has no nodes after its trigger; add them with nodes/batch' },
          ],
        });

        const doomed = await makeSheet(ctx, 'Doomed', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
        const made = await onCreate('Loses a worksheet');
        await added(made.id, [update('write', made.triggerAlias), { nodeAlias: 'lookup', nodeType: 'get_single', prevNode: 'write', config: { worksheetId: doomed.id } }]);
        expect((await send('POST', `/v3/app/workflows/${made.id}/validate`)).body.data).toEqual({ valid: true, errors: [] });
        expect((await send('DELETE', `/v3/app/worksheets/${doomed.id}`)).body.error_code).toBe(1);
        const after = await send<{ valid: boolean; errors: unknown[] }>('POST', `/v3/app/workflows/${made.id}/validate`);
        expect(after.body.data).toEqual({ valid: false, errors: [{ nodeAlias: 'lookup', path: 'config.worksheetId', message: `no worksheet "${doomed.id}" in this application` }] });
      });

      it('publish refuses a workflow with problems (PUBLISH_FAILED, one per line) and publishes nothing', async () => {
        const unbound = await create({ name: 'Unpublishable', trigger: { type: 1, config: { event: 'create' } } });
        const refused = await send('POST', `/v3/app/workflows/${unbound.id}/publish`);
        expect(refused.status).toBe(400);
        expect(refused.body.error_code).toBe(10001);
        expect(refused.body.error_msg.split('\n')).toEqual([
          'PUBLISH_FAILED: the workflow cannot be published (2 problems):',
          'trigger.config.worksheetId: is required: the worksheet whose records trigger the workflow',
          'trigger.nodes: the workflow has no nodes after its trigger; add them with nodes/batch',
        ]);
        expect(await structure(unbound.id)).toMatchObject({ status: 'draft', published: false, version: 0, draftVersion: 1 });
        expect(await ctx.database.db.selectFrom('workflow_versions').selectAll().where('workflow_id', '=', unbound.id).execute()).toEqual([]);
      });

      it('publishes versions; later draft edits leave them as they were; ?version shows one', async () => {
        const made = await onCreate('Versioned');
        await added(made.id, [update('first', made.triggerAlias)]);
        expect(await worksheetListeners(ctx.database.db, sheet.id)).toEqual([]);
        const published = await send<{ version: number; published: boolean }>('POST', `/v3/app/workflows/${made.id}/publish`);
        expect(published.body.data).toEqual({ version: 1, published: true });
        expect(await structure(made.id)).toMatchObject({ status: 'published', published: true, version: 1, draftVersion: 2, hasUnpublishedChanges: false });
        const row = await ctx.database.db.selectFrom('workflows').select(['trigger_worksheet_id', 'published_version']).where('id', '=', made.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ trigger_worksheet_id: sheet.id, published_version: 1 });
        // The listeners were forgotten on publication: the worksheet's writes see the workflow at once.
        expect((await worksheetListeners(ctx.database.db, sheet.id)).map((l) => [l.workflowId, l.version, l.trigger.event])).toEqual([[made.id, 1, 'create']]);

        await added(made.id, [update('second', made.triggerAlias, { prevNode: 'first' })]);
        expect(await structure(made.id)).toMatchObject({ version: 1, draftVersion: 2, hasUnpublishedChanges: true });
        expect(order(await structure(made.id))).toEqual(['first', 'second']);
        const frozen = await structure(made.id, '?version=1');
        expect(frozen).toMatchObject({ version: 1, trigger: { type: 1, alias: made.triggerAlias, config: { worksheetId: sheet.id, event: 'create' } } });
        expect(order(frozen)).toEqual(['first']);

        expect((await send('POST', `/v3/app/workflows/${made.id}/publish`)).body.data).toEqual({ version: 2, published: true });
        expect(order(await structure(made.id, '?version=2'))).toEqual(['first', 'second']);
        expect(order(await structure(made.id, '?version=1'))).toEqual(['first']);
        const definition = await ctx.database.db.selectFrom('workflow_versions').select('definition').where('workflow_id', '=', made.id).where('version', '=', 2).executeTakeFirstOrThrow();
        expect(JSON.parse(definition.definition)).toMatchObject({
          workflowId: made.id,
          appId: ctx.setup.app.appId,
          name: 'Versioned',
          version: 2,
          trigger: { type: 1, alias: made.triggerAlias, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create', triggerFields: [] } },
          nodes: [
            { alias: 'first', type: 'update_record', prev: null, parent: null },
            { alias: 'second', type: 'update_record', prev: 'first', parent: null },
          ],
        });
        const missing = await send('GET', `/v3/app/workflows/${made.id}?version=3`);
        expect(missing.body.error_code).toBe(10007);
        expect(missing.body.error_msg).toBe('version: the workflow has no published version 3 (versions 1 to 2)');
      });

      it('discard-draft puts the published trigger and nodes back', async () => {
        const made = await onCreate('Discarding');
        await added(made.id, [update('kept', made.triggerAlias)]);
        expect((await send('POST', `/v3/app/workflows/${made.id}/discard-draft`)).body.error_code).toBe(10002);
        await send('POST', `/v3/app/workflows/${made.id}/publish`);
        const before = await structure(made.id);
        await added(made.id, [update('dropped', made.triggerAlias, { prevNode: 'kept' })]);
        await send('DELETE', `/v3/app/workflows/${made.id}/nodes/kept`);
        await send('PATCH', `/v3/app/workflows/${made.id}`, { trigger: { config: { worksheetId: sheet.id, event: 'delete' } } });
        expect(await structure(made.id)).toMatchObject({ hasUnpublishedChanges: true, trigger: { config: { event: 'delete' } } });
        const discarded = await send<WorkflowOut>('POST', `/v3/app/workflows/${made.id}/discard-draft`);
        expect(discarded.body.data).toMatchObject({ hasUnpublishedChanges: false, version: 1, trigger: before.trigger });
        expect(discarded.body.data.nodes).toEqual(before.nodes);
      });

      it('close stops the workflow triggering; publishing again opens it', async () => {
        const other = await makeSheet(ctx, 'Closing', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
        const made = await create({ name: 'Closing', trigger: { type: 1, config: { worksheetId: other.id, event: 'delete' } } });
        await added(made.id, [{ nodeAlias: 'look', nodeType: 'get_single', config: { worksheetId: other.id } }]);
        expect((await send('POST', `/v3/app/workflows/${made.id}/close`)).body.error_code).toBe(10002);
        await send('POST', `/v3/app/workflows/${made.id}/publish`);
        expect(await worksheetListeners(ctx.database.db, other.id)).toHaveLength(1);
        expect((await send('POST', `/v3/app/workflows/${made.id}/close`)).body.data).toEqual({ status: 'closed', published: false });
        expect(await structure(made.id)).toMatchObject({ status: 'closed', published: false, version: 1 });
        expect(await worksheetListeners(ctx.database.db, other.id)).toEqual([]);
        expect((await send('POST', `/v3/app/workflows/${made.id}/close`)).body.error_code).toBe(1);
        expect((await send('POST', `/v3/app/workflows/${made.id}/publish`)).body.data).toEqual({ version: 2, published: true });
        expect(await structure(made.id)).toMatchObject({ status: 'published', published: true });
        expect(await worksheetListeners(ctx.database.db, other.id)).toHaveLength(1);
      });

      it('publishing a schedule plans its next firing as a job; close and delete drop it', async () => {
        const made = await create({ name: 'Nightly', trigger: { type: 'schedule', config: { cron: '0 2 * * *', timeZone: 'UTC' } } });
        await added(made.id, [{ nodeAlias: 'look', nodeType: 'get_single', config: { worksheetId: sheet.id } }]);
        const firings = () => ctx.database.db.selectFrom('background_jobs').select(['kind', 'status']).where('payload', 'like', `%${made.id}%`).execute();
        expect(await firings()).toEqual([]);
        expect((await send('POST', `/v3/app/workflows/${made.id}/publish`)).body.error_code).toBe(1);
        expect(await firings()).toEqual([{ kind: 'workflow.schedule', status: 'queued' }]);
        await send('POST', `/v3/app/workflows/${made.id}/close`);
        expect(await firings()).toEqual([]);
        await send('POST', `/v3/app/workflows/${made.id}/publish`);
        expect(await firings()).toHaveLength(1);
        await send('DELETE', `/v3/app/workflows/${made.id}`);
        expect(await firings()).toEqual([]);
      });

      it('delete takes the workflow out of reads and triggers, and keeps its versions for runs in flight', async () => {
        const other = await makeSheet(ctx, 'Deleted flows', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
        const made = await create({ name: 'Doomed', trigger: { type: 1, config: { worksheetId: other.id, event: 'create' } } });
        await added(made.id, [{ nodeAlias: 'look', nodeType: 'get_single', config: { worksheetId: other.id } }]);
        await send('POST', `/v3/app/workflows/${made.id}/publish`);
        expect(await worksheetListeners(ctx.database.db, other.id)).toHaveLength(1);
        expect((await send('DELETE', `/v3/app/workflows/${made.id}`)).body.error_code).toBe(1);
        expect((await send('GET', `/v3/app/workflows/${made.id}`)).body.error_code).toBe(10007);
        expect((await send('POST', `/v3/app/workflows/${made.id}/nodes/batch`, { nodes: [update('x', made.triggerAlias)] })).body.error_code).toBe(10007);
        expect((await send('DELETE', `/v3/app/workflows/${made.id}`)).body.error_code).toBe(10007);
        expect(await worksheetListeners(ctx.database.db, other.id)).toEqual([]);
        const list = await send<{ workflows: Array<{ id: string }> }>('GET', '/v3/app/workflows/list');
        expect(list.body.data.workflows.map((w) => w.id)).not.toContain(made.id);
        expect(await ctx.database.db.selectFrom('workflow_versions').select('version').where('workflow_id', '=', made.id).execute()).toEqual([{ version: 1 }]);
        expect(await ctx.database.db.selectFrom('workflow_nodes').select('id').where('workflow_id', '=', made.id).execute()).toEqual([]);
      });

      it('lists the workflows by trigger type and by publication', async () => {
        const hook = await create({ name: 'Listed hook', trigger: { type: 7 } });
        const live = await create({ name: 'Listed live', trigger: { type: 17, config: { inputs: [] } } });
        await added(live.id, [{ nodeAlias: 'look', nodeType: 'get_single', config: { worksheetId: sheet.id } }]);
        await send('POST', `/v3/app/workflows/${live.id}/publish`);
        type Listed = { workflows: Array<{ id: string; triggerType: number; published: boolean; status: string; version: number; worksheetId: string | null }>; total: number };
        const list = async (query: string) => (await send<Listed>('GET', `/v3/app/workflows/list${query}`)).body.data;
        const all = await list('');
        expect(all.workflows.map((w) => w.id)).toEqual(expect.arrayContaining([hook.id, live.id]));
        expect(all.total).toBe(all.workflows.length);
        for (const query of ['?triggerType=7', '?triggerType=webhook']) expect((await list(query)).workflows.every((w) => w.triggerType === 7)).toBe(true);
        expect((await list('?triggerType=7')).workflows.map((w) => w.id)).toContain(hook.id);
        const published = await list('?published=true');
        expect(published.workflows.every((w) => w.published && w.status === 'published')).toBe(true);
        expect(published.workflows.find((w) => w.id === live.id)).toMatchObject({ triggerType: 17, version: 1, worksheetId: null });
        expect((await list('?published=false')).workflows.map((w) => w.id)).toContain(hook.id);
        expect((await list('?published=false')).workflows.map((w) => w.id)).not.toContain(live.id);
        const paged = await list('?pageSize=1&pageIndex=2');
        expect(paged.workflows).toHaveLength(1);
        expect(paged.workflows[0].id).toBe(all.workflows[1].id);
        expect((await send('GET', '/v3/app/workflows/list?triggerType=teleport')).body.error_code).toBe(10002);
      });
    });

    describe('who may', () => {
      it('read-only keys read and validate but change nothing; people who do not administer the application may not read', async () => {
        const made = await onCreate('Guarded');
        const key = await addKey(ctx.database.db, ctx.setup.app.appId, true, Date.now());
        const readOnly = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
        expect((await send('GET', `/v3/app/workflows/${made.id}`, undefined, readOnly)).body.error_code).toBe(1);
        expect((await send('GET', '/v3/app/workflows/list', undefined, readOnly)).body.error_code).toBe(1);
        expect((await send('POST', `/v3/app/workflows/${made.id}/validate`, undefined, readOnly)).body.error_code).toBe(1);
        for (const [method, path, body] of [
          ['POST', '/v3/app/workflows', { name: 'x', trigger: { type: 7 } }],
          ['PATCH', `/v3/app/workflows/${made.id}`, { name: 'x' }],
          ['POST', `/v3/app/workflows/${made.id}/nodes/batch`, { nodes: [update('x', made.triggerAlias)] }],
          ['DELETE', `/v3/app/workflows/${made.id}/nodes`, { nodeIds: ['x'] }],
          ['POST', `/v3/app/workflows/${made.id}/publish`, undefined],
          ['POST', `/v3/app/workflows/${made.id}/close`, undefined],
          ['POST', `/v3/app/workflows/${made.id}/discard-draft`, undefined],
          ['DELETE', `/v3/app/workflows/${made.id}`, undefined],
        ] as const) {
          const response = await send(method, path, body, readOnly);
          expect(response.status, path).toBe(403);
          expect(response.body.error_code, path).toBe(10005);
        }
        expect(await structure(made.id)).toMatchObject({ name: 'Guarded', nodes: [] });

        const member = newGuid();
        await ctx.database.db.insertInto('accounts').values({ id: member, organization_id: ctx.setup.organizationId, email: `member-${ctx.engine}@example.com`, fullname: 'Member', password_hash: null, status: 1, created_at: NOW }).execute();
        await ctx.database.db.insertInto('organization_members').values({ organization_id: ctx.setup.organizationId, account_id: member, is_admin: 0, status: 1, joined_at: NOW }).execute();
        const { token } = await createToken(ctx.database.db, member, { scopes: 'all' }, Date.now());
        const person = { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId };
        for (const path of [`/v3/app/workflows/${made.id}`, '/v3/app/workflows/list']) {
          const response = await send('GET', path, undefined, person);
          expect(response.status, path).toBe(403);
          expect(response.body.error_code, path).toBe(10005);
        }
      });
    });
  },
  {},
  { clock: () => NOW },
);
