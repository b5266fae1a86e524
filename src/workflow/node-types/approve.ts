import { Type, type Static } from '@sinclair/typebox';
import { defineNodeType, type NodeContext, type NodeOutcome } from '../node-type.js';
import { peopleOnly, recipientReferences, Recipients, resolveRecipients } from '../recipients.js';
import { checkReferences } from './record-checks.js';

const HOUR_MS = 3_600_000;

export const ApproveConfig = Type.Object({
  approvers: Recipients,
  /** `any`: the first decision decides; `all`: every approver must approve; `inOrder`: one after another, each only once the one before approved. */
  mode: Type.Optional(Type.Union([Type.Literal('any'), Type.Literal('all'), Type.Literal('inOrder')], { default: 'any' })),
  opinionRequired: Type.Optional(Type.Boolean({ default: false })),
  /** After `hours` from the step's start, the pending to-dos are approved, rejected, or their assignees notified. */
  deadline: Type.Optional(Type.Object({ hours: Type.Number({ exclusiveMinimum: 0, maximum: 8760 }), action: Type.Union([Type.Literal('approve'), Type.Literal('reject'), Type.Literal('notify')]) })),
  /** The fields of the record the approvers see (ids); every field when absent. */
  visibleFields: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** When nobody matches the approvers: the step passes (`approve`, the default) or the run fails (`fail`). */
  ifNoApprover: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('fail')], { default: 'approve' })),
});
type ApproveConfig = Static<typeof ApproveConfig>;

/**
 * What a waiting approve step keeps: whom it resolved, whose turn it is (in order), its deadline, and
 * who must act now (`assignees`, which the runner shows as the record's `_nodeAssignees`): the
 * current approver in order, the ones still pending for `any` and `all`, the initiator while returned.
 */
type ApproveState = {
  approvers: string[];
  position: number;
  assignees: string[];
  /** `deciding`, or `returned` while the initiator's resubmit to-do is open. */
  phase: 'deciding' | 'returned';
  dueAt: number | null;
};

/** What the decision service signals (`modules/workflow-instances`). */
interface ApproveSignal {
  /** `progress`: an approval of an `all` step that leaves others pending (the step is not settled). */
  action: 'approve' | 'progress' | 'reject' | 'return' | 'resubmit';
  /** For `return`: an earlier step's alias; absent: back to the initiator. */
  to?: string | null;
}

/** Resolves the approvers and opens their to-dos (the first one's only, in order). */
async function start(config: ApproveConfig, ctx: NodeContext): Promise<NodeOutcome> {
  const { accountIds: approvers } = await resolveRecipients(config.approvers, ctx);
  if (approvers.length === 0) {
    if (config.ifNoApprover === 'fail') throw new Error('approvers: no active member matches them');
    return { exit: 'approved', output: { approvers: [], noApprover: true, opinions: [] }, container: { exit: 'approved' } };
  }
  const mode = config.mode ?? 'any';
  const dueAt = config.deadline ? ctx.now() + config.deadline.hours * HOUR_MS : null;
  const assignees = mode === 'inOrder' ? approvers.slice(0, 1) : approvers;
  await ctx.todos.open(4, assignees, { mode, dueAt });
  const state: ApproveState = { approvers, position: 0, assignees, phase: 'deciding', dueAt };
  // A resubmitted step starts afresh: its start, deadline and assignees are shown anew.
  return { wait: { ...(dueAt !== null ? { until: dueAt } : {}), state: state, fresh: true } };
}

/**
 * An approval of an `all` step that left others pending (`progress`): the step waits on, naming
 * whoever still has a to-do of it (a late signal, after a return, finds the initiator's).
 */
async function waitOnOthers(state: ApproveState, ctx: NodeContext): Promise<NodeOutcome> {
  const pending = (await ctx.todos.items()).filter((item) => item.status === 0 && item.kind !== 5).map((item) => item.assigneeId);
  return { wait: { state: { ...state, assignees: pending } } };
}

/** The step's decision: its opinions so far, and where the run goes. */
async function decided(result: 'approved' | 'rejected', state: ApproveState, ctx: NodeContext): Promise<NodeOutcome> {
  const items = await ctx.todos.items();
  // What the decision service left open (none, as a rule: it closes the others when it signals).
  if (items.some((item) => item.status === 0 && item.kind !== 5)) await ctx.todos.close({ status: 5, action: 'none' });
  const opinions = items
    .filter((item) => item.kind === 4 && item.action !== null && item.action !== 'none')
    .map((item) => ({ accountId: item.assigneeId, actedBy: item.actedBy, action: item.action, opinion: item.opinion ?? '', at: item.actedAt }));
  const output = { approvers: state.approvers, result, opinions };
  if (result === 'approved') return { exit: 'approved', output, container: { exit: 'approved' } };
  const block = ctx.container?.type === 'approval_block' ? (ctx.container.config as { onReject?: string }) : undefined;
  if (block?.onReject === 'exit') return { exit: 'rejected', output, container: { exit: 'rejected', leave: true } };
  return { exit: 'rejected', output, end: 'refused', container: { exit: 'rejected' } };
}

/** The deadline came: its action on the pending to-dos. A timer of an earlier round (before a resubmit) is ignored. */
async function deadlineReached(config: ApproveConfig, state: ApproveState, ctx: NodeContext): Promise<NodeOutcome> {
  if (!config.deadline || state.phase !== 'deciding' || state.dueAt === null || ctx.now() < state.dueAt) return { wait: { state: state } };
  const opinion = 'decided automatically: the deadline passed';
  if (config.deadline.action === 'approve') {
    await ctx.todos.close({ status: 1, action: 'approve', opinion });
    return decided('approved', state, ctx);
  }
  if (config.deadline.action === 'reject') {
    await ctx.todos.close({ status: 4, action: 'reject', opinion });
    return decided('rejected', state, ctx);
  }
  const pending = (await ctx.todos.items()).filter((item) => item.status === 0 && item.kind === 4).map((item) => item.assigneeId);
  await ctx.todos.notify(pending, { kind: 'deadline', title: `Overdue: ${ctx.run.nodeName}`, body: 'The deadline of this approval has passed; it is still waiting for your decision.' });
  // Notified once: the step waits on, with no deadline left.
  return { wait: { state: { ...state, assignees: pending, dueAt: null } } };
}

/**
 * Approve (public type 4), only inside an approval block: the approvers are resolved when the step
 * starts and each gets a to-do (`any`, `all`) or one after another (`inOrder`). The decision service
 * signals each decision that settles the step: `approved` leaves by `approved`; `rejected` ends the
 * run as refused or leaves the block (its `onReject`); a return goes back to an earlier step or
 * opens a resubmit to-do for the initiator, whose resubmission starts the step afresh. An approval
 * of an `all` step that leaves others pending is signalled as `progress`: the step waits on. Every
 * wait names who must act now (`state.assignees`, the record's `_nodeAssignees`).
 */
export const approveNode = defineNodeType({
  type: 'approve',
  code: 4,
  config: ApproveConfig,
  exits: ['approved', 'rejected', 'returned'],
  effects: 'database',
  showsProcess: true,
  onlyInside: ['approval_block'],
  check: (config, at) => [...peopleOnly(config.approvers, 'approvers', 'an approval'), ...checkReferences(recipientReferences(config.approvers, 'approvers'), at)],
  run: start,
  async resume(config, wake, ctx) {
    const state = wake.state as unknown as ApproveState;
    if (wake.kind === 'timer') return deadlineReached(config, state, ctx);
    const signal = wake.signal as unknown as ApproveSignal;
    switch (signal.action) {
      case 'approve': {
        const next = state.position + 1;
        if ((config.mode ?? 'any') !== 'inOrder' || next >= state.approvers.length) return decided('approved', state, ctx);
        await ctx.todos.open(4, [state.approvers[next]], { mode: 'inOrder', dueAt: state.dueAt });
        return { wait: { state: { ...state, position: next, assignees: [state.approvers[next]] } } };
      }
      case 'progress':
        return waitOnOthers(state, ctx);
      case 'reject':
        return decided('rejected', state, ctx);
      case 'return':
        if (signal.to) return { exit: 'returned', output: { approvers: state.approvers, result: 'returned', to: signal.to }, goTo: signal.to };
        await ctx.todos.open(0, [ctx.run.initiatorId], { note: 'returned to you: change the record if needed and resubmit it' });
        // The initiator must act now, with no deadline (the approvers' no longer acts while returned).
        return { wait: { state: { ...state, phase: 'returned', assignees: [ctx.run.initiatorId] }, fresh: true } };
      case 'resubmit':
        return start(config, ctx);
      default:
        throw new Error(`approve: unknown signal ${JSON.stringify(signal.action)}`);
    }
  },
});
