import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';
import { runsOf } from '../helpers/workflow-fixtures.js';

/**
 * A sub-process node's inputs against the child's declared inputs (facts §7.1, §7.4): checked when
 * the node is saved and when the parent is published (the child's published version, or its draft
 * before its first publication), and read by the hook's rules when the node runs, against the
 * version published then.
 */

const NOW = Date.UTC(2026, 0, 12, 9, 0, 0);
const literal = (value: unknown) => ({ kind: 'literal', value });
const field = (node: string, fieldId: string) => ({ kind: 'field', node, fieldId });

/** The child's inputs: a required number, a date, a radio with an alias. */
const CHILD_INPUTS = [
  { name: 'n', type: 'number', required: true },
  { name: 'when', type: 'date' },
  { name: 'level', alias: 'lvl', type: 'radio', options: ['low', 'high'] },
];

describeApi(
  'workflow sub-process inputs: typed against the child process, when saved, published and run',
  (ctx) => {
    let sheet: Sheet;

    async function create(name: string, trigger: Record<string, unknown>): Promise<{ id: string; triggerAlias: string }> {
      const made = await ctx.call<{ id: string; triggerAlias: string }>('POST', '/v3/app/workflows', { name, description: 'test', trigger });
      expect(made.body.error_msg).toBe('');
      return made.body.data;
    }
    const batch = (id: string, nodes: unknown[]) => ctx.call('POST', `/v3/app/workflows/${id}/nodes/batch`, { nodes });
    const publish = (id: string) => ctx.call<{ version: number }>('POST', `/v3/app/workflows/${id}/publish`);
    const subNode = (trigger: string, workflowId: string, inputs: Record<string, unknown>) => ({ nodeAlias: 'sub', nodeType: 'sub_process', prevNode: trigger, config: { workflowId, inputs, wait: true } });

    /** An API process with `inputs` whose run returns what it was given, published unless `draft`. */
    async function child(name: string, inputs: unknown[], draft = false): Promise<string> {
      const made = await create(name, { type: 17, config: { inputs, outputs: [{ name: 'n', type: 'number' }, { name: 'when', type: 'date' }, { name: 'level', type: 'text' }] } });
      const echo = { n: field(made.triggerAlias, 'n'), when: field(made.triggerAlias, 'when'), level: field(made.triggerAlias, 'lvl') };
      expect((await batch(made.id, [{ nodeAlias: 'echo', nodeType: 'return', prevNode: made.triggerAlias, config: { outputs: echo } }])).body.error_msg).toBe('');
      if (!draft) expect((await publish(made.id)).body.error_msg).toBe('');
      return made.id;
    }

    const onCreate = (name: string) => create(name, { type: 1, config: { worksheetId: sheet.id, event: 'create' } });

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Requests', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Meeting', alias: 'meeting', type: '16' },
      ]);
    });

    it('refuses, when the node is saved, input names the child does not declare, required inputs left out and literals of the wrong type', async () => {
      const childId = await child('Typed child', CHILD_INPUTS);
      const parent = await onCreate('Parent with bad literals');
      const wrong = await batch(parent.id, [subNode(parent.triggerAlias, childId, { n: literal('lots'), when: literal('12/01/2026'), lvl: literal('medium'), colour: literal('red') })]);
      expect([wrong.status, wrong.body.error_code]).toEqual([400, 10002]);
      expect(wrong.body.error_msg.split('\n')).toEqual([
        'nodes[sub].config.inputs.n: expected a number, got "lots"',
        'nodes[sub].config.inputs.when: expected a date "YYYY-MM-DD" or date-time "YYYY-MM-DD HH:mm", got "12/01/2026"',
        'nodes[sub].config.inputs.lvl: "medium" is not an option; options are "low", "high"',
        'nodes[sub].config.inputs.colour: no such input; inputs are n, when, level',
      ]);
      const leftOut = await batch(parent.id, [subNode(parent.triggerAlias, childId, { when: literal('2026-01-12') })]);
      expect(leftOut.body.error_msg).toBe('nodes[sub].config.inputs.n: is required');
      const mappedToNothing = await batch(parent.id, [subNode(parent.triggerAlias, childId, { n: { kind: 'empty' } })]);
      expect(mappedToNothing.body.error_msg).toBe('nodes[sub].config.inputs.n: is required');
      // Literals the hook would take, by name or alias, and references known only when the node runs.
      const good = await batch(parent.id, [subNode(parent.triggerAlias, childId, { n: literal('12'), when: literal('2026-01-12 08:30'), lvl: literal('high') })]);
      expect(good.body.error_msg).toBe('');
      const refs = await onCreate('Parent with references');
      expect((await batch(refs.id, [subNode(refs.triggerAlias, childId, { n: field(refs.triggerAlias, sheet.field.title) })])).body.error_msg).toBe('');
    });

    it("checks against the child's published version; its draft only before its first publication", async () => {
      const draftOnly = await child('Unpublished child', [{ name: 'code', type: 'text', required: true }], true);
      const early = await onCreate('Built before its child is published');
      expect((await batch(early.id, [subNode(early.triggerAlias, draftOnly, {})])).body.error_msg).toBe('nodes[sub].config.inputs.code: is required');
      // Saved while the child is a draft; published only after it (the public NodeAppIsNull).
      expect((await batch(early.id, [subNode(early.triggerAlias, draftOnly, { code: literal('A1') })])).body.error_msg).toBe('');
      const unpublishedChild = 'nodes[sub].config.workflowId: NodeAppIsNull: "Unpublished child" is not published; publish it before this workflow';
      expect((await ctx.call('POST', `/v3/app/workflows/${early.id}/validate`)).body.data).toEqual({ valid: false, errors: [{ nodeAlias: 'sub', path: 'config.workflowId', message: unpublishedChild.split('workflowId: ')[1] }] });
      expect((await publish(early.id)).body.error_msg).toBe(`PUBLISH_FAILED: the workflow cannot be published (1 problem):\n${unpublishedChild}`);
      expect((await publish(draftOnly)).body.error_msg).toBe('');
      expect((await publish(early.id)).body.error_msg).toBe('');
      const childId = await child('Changing child', CHILD_INPUTS);
      const parent = await onCreate('Parent of a changing child');
      expect((await batch(parent.id, [subNode(parent.triggerAlias, childId, { n: literal(1) })])).body.error_msg).toBe('');
      // The child's draft gains a required input: not what runs yet, so the parent is still fine.
      const changed = await ctx.call('PATCH', `/v3/app/workflows/${childId}`, { trigger: { config: { inputs: [...CHILD_INPUTS, { name: 'extra', type: 'checkbox', required: true }] } } });
      expect(changed.body.error_msg).toBe('');
      expect((await ctx.call('POST', `/v3/app/workflows/${parent.id}/validate`)).body.data).toEqual({ valid: true, errors: [] });
      // Published, it is what a run would start: the parent may no longer be published as it is.
      expect((await publish(childId)).body.data).toMatchObject({ version: 2 });
      expect((await ctx.call('POST', `/v3/app/workflows/${parent.id}/validate`)).body.data).toEqual({ valid: false, errors: [{ nodeAlias: 'sub', path: 'config.inputs.extra', message: 'is required' }] });
      const refused = await publish(parent.id);
      expect([refused.status, refused.body.error_msg]).toEqual([400, 'PUBLISH_FAILED: the workflow cannot be published (1 problem):\nnodes[sub].config.inputs.extra: is required']);
    });

    it('reads the resolved values by the hook rules when the node runs: converted into the child, or the step fails saying which input', async () => {
      const childId = await child('Running child', CHILD_INPUTS);
      const parent = await onCreate('Parent that runs');
      const inputs = { n: field(parent.triggerAlias, sheet.field.title), when: field(parent.triggerAlias, sheet.field.meeting), lvl: literal('high') };
      expect((await batch(parent.id, [subNode(parent.triggerAlias, childId, inputs)])).body.error_msg).toBe('');
      expect((await publish(parent.id)).body.error_msg).toBe('');
      await createRecord(ctx, sheet, [{ id: 'title', value: '12.5' }, { id: 'meeting', value: '2026-07-01T06:30:00Z' }]);
      await ctx.app.jobs.runUntilIdle();
      await createRecord(ctx, sheet, [{ id: 'title', value: 'twelve' }]);
      await ctx.app.jobs.runUntilIdle();
      const runs = await runsOf(ctx, parent.id);
      expect(runs.map((r) => [r.status, r.error])).toEqual([
        ['passed', null],
        ['failed', 'sub: the workflow "Running child" cannot start with these inputs: n: expected a number, got "twelve"'],
      ]);
      expect(runs[1].steps.at(-1)).toMatchObject({ node_alias: 'sub', status: 'failed', error: 'the workflow "Running child" cannot start with these inputs: n: expected a number, got "twelve"' });
      // The child got a number, the instant as the wall time in TIME_ZONE (Berlin, summer time), the option's text; by name and by alias.
      const [childRun] = await runsOf(ctx, childId);
      expect(JSON.parse(childRun.trigger)).toMatchObject({ kind: 'sub_process', inputs: { n: 12.5, when: '2026-07-01 08:30', level: 'high' }, fields: { n: 12.5, level: 'high', lvl: 'high' } });
      expect(JSON.parse(childRun.outputs!)).toEqual({ n: 12.5, when: '2026-07-01 08:30', level: 'high' });
    });
  },
  { WORKERS: '0', TIME_ZONE: 'Europe/Berlin' },
  { clock: () => NOW },
);
