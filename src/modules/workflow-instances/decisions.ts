import type { Executor } from '../../db/connection.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { signalRun } from '../../workflow/run-wake.js';
import { loadVersion, type LoadedVersion } from '../../workflow/versions.js';
import { ENDED } from '../../workflow/run-store.js';
import type { FieldValueInput } from '../records/index.js';
import { filledValues, finished, KIND_OF, opinionOf, requireKind, requireMayAct, returnTarget, stepConfig, type DecisionAction, type DecisionInput } from './decision-checks.js';
import * as repository from './repository.js';
import { ITEM_STATUS, KIND, KIND_WORDS } from './statuses.js';

/** The outcome of a batch: the instances acted on, and why each other one was not. */
export interface BatchResult {
  success: string[];
  fail: Array<{ id: string; error_code: number; error_msg: string }>;
}

/** A decision checked against what was read before its transaction: the to-do, its run, and what the step gets. */
interface Checked {
  item: repository.WorkItemRow;
  run: repository.InstanceRun;
  /** Whether other to-dos of its step were pending when the batch was read (none can open while this one is pending). */
  othersPending: boolean;
  opinion: string | null;
  fields: FieldValueInput[] | null;
  to: string | null;
}

const STATUS_AFTER: Readonly<Record<DecisionAction, number>> = { approve: ITEM_STATUS.done, reject: ITEM_STATUS.rejected, return: ITEM_STATUS.rejected, fill: ITEM_STATUS.done, resubmit: ITEM_STATUS.done };

/**
 * What was read for a batch, in three statements whatever its size: the to-dos named, every pending
 * to-do of the instances (the caller's, for decisions without a workId; the others of each step, to
 * know what a decision leaves open), and the runs.
 */
async function readBatch(ctx: ServiceContext, action: DecisionAction, inputs: readonly DecisionInput[]) {
  const runIds = [...new Set(inputs.map((i) => i.id))];
  const named = await repository.itemsByIds(ctx.db, inputs.flatMap((i) => (i.workId ? [i.workId] : [])));
  const pending = await repository.pendingItemsOf(ctx.db, runIds, [KIND.resubmit, KIND.fill, KIND.approve], null);
  const runs = await repository.runsByIds(ctx.db, runIds);
  const pendingByRun = new Map<string, repository.WorkItemRow[]>();
  for (const item of pending) pendingByRun.set(item.run_id, [...(pendingByRun.get(item.run_id) ?? []), item]);
  return { byId: new Map(named.map((item) => [item.id, item])), pendingByRun, runs, actorId: ctx.actor.userId, kind: KIND_OF[action] };
}

type BatchRead = Awaited<ReturnType<typeof readBatch>>;

/** The to-do a decision is about: the one named (of this instance), or the caller's only pending one of the right kind. */
function itemFor(action: DecisionAction, input: DecisionInput, read: BatchRead): repository.WorkItemRow {
  if (input.workId) {
    const item = read.byId.get(input.workId);
    if (!item || item.run_id !== input.id) throw AppError.notFound(`workId "${input.workId.slice(0, 60)}": no to-do of instance "${input.id.slice(0, 60)}"`);
    return item;
  }
  const candidates = (read.pendingByRun.get(input.id) ?? []).filter((item) => Number(item.kind) === read.kind && (read.actorId === null || item.assignee_id === read.actorId));
  const words = KIND_WORDS[KIND_OF[action]];
  if (candidates.length === 0) throw AppError.notFound(`instance "${input.id.slice(0, 60)}": no pending to-do to ${words} for you; name it with workId`);
  if (candidates.length > 1) throw AppError.invalidParameters(`workId is required: instance "${input.id.slice(0, 60)}" has ${candidates.length} pending to-dos to ${words}`);
  return candidates[0];
}

/** Checks one decision before its transaction (permission, kind, still pending, opinion, values, target). */
async function check(ctx: ServiceContext, action: DecisionAction, input: DecisionInput, read: BatchRead): Promise<Checked> {
  const run = read.runs.get(input.id);
  if (!run || run.app_id !== ctx.actor.appId) throw AppError.notFound(`instance "${input.id.slice(0, 60)}" does not exist in this application`);
  const item = itemFor(action, input, read);
  requireMayAct(ctx.actor, item);
  requireKind(action, item);
  if (Number(item.status) !== ITEM_STATUS.pending || ENDED.has(run.status)) throw finished(item, run);
  const loaded: LoadedVersion = await loadVersion(ctx.db, run.workflow_id, run.version);
  const config = stepConfig(loaded, item);
  const othersPending = (read.pendingByRun.get(run.id) ?? []).some((other) => other.id !== item.id && other.seq === item.seq);
  return {
    item,
    run,
    othersPending,
    opinion: opinionOf(input, action, config, item),
    fields: action === 'fill' ? await filledValues(ctx, input, run, config) : null,
    to: action === 'return' ? returnTarget(input, run, loaded, item) : null,
  };
}

/**
 * Whether the step is settled by this decision, so that its run goes on (closing the to-dos no
 * longer needed): any decision but an approval of `all` settles it; that one once none is left.
 */
async function settles(trx: Executor, action: DecisionAction, checked: Checked, now: number): Promise<boolean> {
  const { item, othersPending } = checked;
  if (!othersPending) return true;
  const run = item.run_id;
  const seq = Number(item.seq);
  if (action === 'approve' && item.mode === 'all') return (await repository.countPending(trx, run, seq, Number(item.kind))) === 0;
  await repository.closePending(trx, run, seq, { status: ITEM_STATUS.notNeeded, action: 'none', actedBy: null, now }, item.id);
  return true;
}

/**
 * Records one decision and signals the run, in one transaction: the decision itself when it
 * settles the step; else (an approval of an `all` step with others pending) `progress`, on which the
 * step waits on and shows who is left as the record's assignees.
 */
async function apply(ctx: ServiceContext, action: DecisionAction, checked: Checked): Promise<void> {
  const { item, run } = checked;
  await inTransaction(ctx.db, async (trx) => {
    const now = ctx.now();
    await repository.lockRun(trx, ctx.dialect, run.id);
    const filled = checked.fields ? JSON.stringify(checked.fields) : null;
    const decided = await repository.decideItem(trx, item.id, { status: STATUS_AFTER[action], action, opinion: checked.opinion, filled, actedBy: ctx.actor.accountId, now });
    if (!decided) {
      // Decided or closed since it was read: say how it stands now.
      const [current] = await repository.itemsByIds(trx, [item.id]);
      throw finished(current ?? item, undefined);
    }
    const settled = await settles(trx, action, checked, now);
    const data = settled
      ? { action, by: ctx.actor.accountId, opinion: checked.opinion, ...(checked.fields ? { values: checked.fields } : {}), ...(action === 'return' ? { to: checked.to } : {}) }
      : { action: 'progress', by: ctx.actor.accountId };
    await signalRun(trx, run.id, item.node_alias, Number(item.seq), data, now);
  });
}

/**
 * Decides to-dos, each in its own transaction: approve, reject, return (to an earlier step or the
 * initiator), fill in, resubmit. What is read to check them is read once for the whole batch. Each
 * decision records the to-do's new status, opinion and time and signals the run in the same
 * transaction: when it settles its step (any one; all; in order, each) the run goes on after
 * commit; an approval of an `all` step that leaves others pending only updates who is left.
 * @example await decide(ctx, 'approve', [{ id: runId, workId, opinion: 'fine' }])
 */
export async function decide(ctx: ServiceContext, action: DecisionAction, inputs: readonly DecisionInput[]): Promise<BatchResult> {
  const read = await readBatch(ctx, action, inputs);
  const result: BatchResult = { success: [], fail: [] };
  for (const input of inputs) {
    try {
      await apply(ctx, action, await check(ctx, action, input, read));
      result.success.push(input.id);
    } catch (error) {
      if (error instanceof AppError) result.fail.push({ id: input.id, error_code: error.code, error_msg: error.message });
      else {
        ctx.log.error({ err: error, instanceId: input.id }, 'deciding a to-do failed');
        result.fail.push({ id: input.id, error_code: ErrorCode.DataOperationFailed, error_msg: 'deciding this to-do failed; the server log has the details' });
      }
    }
  }
  return result;
}

/** One decision, its refusal thrown (the single-instance endpoints: return, resubmit). */
export async function decideOne(ctx: ServiceContext, action: DecisionAction, input: DecisionInput): Promise<void> {
  const read = await readBatch(ctx, action, [input]);
  await apply(ctx, action, await check(ctx, action, input, read));
}
