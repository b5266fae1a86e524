import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { peopleOnly, recipientReferences, Recipients, resolveRecipients } from '../recipients.js';
import { checkReferences } from './record-checks.js';

/** One field a fill-in step lets its assignee fill. */
export const FillField = Type.Object({ fieldId: Type.String({ minLength: 1 }), required: Type.Optional(Type.Boolean({ default: false })) });

/** What the decision service signals when an assignee submits (`modules/workflow-instances`). */
type FillSignal = { action: 'fill'; by: string; values: Array<{ id: string; value: unknown }> };

/**
 * Fill in (public type 3), only inside an approval block: the assignees (resolved when the step
 * starts) each get a to-do; the first to submit fills the step, and the others' to-dos close. The
 * values, checked when submitted, are written to the run's record here, in the step's transaction:
 * the write and the step commit together.
 */
export const fillInNode = defineNodeType({
  type: 'fill_in',
  code: 3,
  config: Type.Object({
    assignees: Recipients,
    fields: Type.Array(FillField, { minItems: 1, maxItems: 200 }),
    /** The fields of the record the assignees see (ids); every field when absent. The fields to fill are always seen. */
    visibleFields: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  }),
  exits: ['next'],
  effects: 'database',
  showsProcess: true,
  onlyInside: ['approval_block'],
  check: (config, at) => [...fieldsListedOnce(config.fields.map((f) => f.fieldId)), ...peopleOnly(config.assignees, 'assignees', 'a fill-in'), ...checkReferences(recipientReferences(config.assignees, 'assignees'), at)],
  async run(config, ctx) {
    if (!ctx.run.worksheetId || !ctx.run.rowId) throw new Error('fill_in: the run has no record to fill in (it was not triggered by a record)');
    const { accountIds: assignees } = await resolveRecipients(config.assignees, ctx);
    if (assignees.length === 0) return { exit: 'next', output: { assignees: [], noAssignee: true, values: {} } };
    await ctx.todos.open(3, assignees);
    return { wait: { state: { assignees } } };
  },
  async resume(_config, wake, ctx) {
    if (wake.kind === 'timer') return { wait: { state: wake.state } };
    const signal = wake.signal as FillSignal;
    await ctx.records.update(ctx.run.worksheetId!, ctx.run.rowId!, signal.values as never);
    await ctx.todos.close({ status: 5, action: 'none' });
    return { exit: 'next', output: { assignees: wake.state.assignees, filledBy: signal.by, values: Object.fromEntries(signal.values.map((v) => [v.id, v.value])) } };
  },
});

function fieldsListedOnce(fieldIds: string[]) {
  return fieldIds.flatMap((id, i) => (fieldIds.indexOf(id) !== i ? [{ path: `fields[${i}].fieldId`, message: `the field "${id}" is listed twice` }] : []));
}

