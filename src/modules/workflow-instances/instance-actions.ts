import { administers, forbidden } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { endRun } from '../../workflow/run-limits.js';
import { ENDED } from '../../workflow/run-store.js';
import { notify } from '../notifications/index.js';
import * as repository from './repository.js';
import { iso, ITEM_STATUS } from './statuses.js';

/** How long after an urge the same instance may be urged again. */
export const URGE_INTERVAL_MS = 3_600_000;

/** The instance (run) of the caller's application (10007 otherwise). */
export async function instanceOf(ctx: ServiceContext, instanceId: string): Promise<repository.InstanceRun> {
  const run = (await repository.runsByIds(ctx.db, [instanceId])).get(instanceId);
  if (!run || run.app_id !== ctx.actor.appId) throw AppError.notFound(`instance "${instanceId.slice(0, 60)}" does not exist in this application`);
  return run;
}

const isInitiator = (ctx: ServiceContext, run: repository.InstanceRun) => ctx.actor.userId !== null && ctx.actor.userId === run.initiator_id;

function requireRunning(run: repository.InstanceRun, what: string): void {
  if (ENDED.has(run.status)) throw new AppError(ErrorCode.InvalidValue, 409, `instance "${run.id}" has already ended (${run.status}); it cannot be ${what}`);
}

/**
 * Ends a run as aborted with its pending to-dos closed (status 5), in one transaction (`endRun`:
 * its waiting step ended, its record's process fields kept, a parent run told). A step that was
 * running meanwhile cannot commit after it (`RunEnded`). 409 when it had ended.
 */
async function abort(ctx: ServiceContext, run: repository.InstanceRun, reason: string, what: string, guard?: (trx: Executor) => Promise<void>): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const now = ctx.now();
    await repository.lockRun(trx, ctx.dialect, run.id);
    await guard?.(trx);
    if (!(await endRun(trx, ctx.dialect, run.id, 'aborted', reason, now))) requireRunning({ ...run, status: 'aborted' }, what);
    await repository.closePending(trx, run.id, null, { status: ITEM_STATUS.notNeeded, action: 'none', actedBy: null, now });
  });
}

/**
 * The initiator withdraws their instance before anyone acted on it (an approval decided or a
 * fill-in submitted): the run ends as aborted. 10005 for anyone else; 10002 once someone acted.
 */
export async function revokeInstance(ctx: ServiceContext, instanceId: string): Promise<void> {
  const run = await instanceOf(ctx, instanceId);
  if (!isInitiator(ctx, run)) throw forbidden(ctx.actor, 'only the initiator of an instance may revoke it (an administrator may terminate it)');
  requireRunning(run, 'revoked');
  await abort(ctx, run, `revoked by ${ctx.actor.accountId}`, 'revoked', async (trx) => {
    const acted = await repository.anyoneActed(trx, run.id);
    if (acted) throw AppError.invalidValue(`instance "${run.id}" cannot be revoked: "${acted.node_name}" was already acted on (${acted.action} at ${iso(acted.acted_at)}); ask an administrator to terminate it`);
  });
}

/** The initiator or an administrator of the application ends the instance: the run ends as aborted. */
export async function terminateInstance(ctx: ServiceContext, instanceId: string): Promise<void> {
  const run = await instanceOf(ctx, instanceId);
  if (!isInitiator(ctx, run) && !administers(ctx.actor)) throw forbidden(ctx.actor, 'only the initiator of an instance or an administrator of the application may terminate it');
  requireRunning(run, 'terminated');
  await abort(ctx, run, `terminated by ${ctx.actor.accountId}`, 'terminated');
}

/**
 * Notifies the assignees of the instance's pending to-dos (approvals, fill-ins, a resubmit), by the
 * initiator or an administrator; at most once an hour per instance (51, HTTP 429, saying when).
 */
export async function urgeInstance(ctx: ServiceContext, instanceId: string): Promise<{ urged: string[] }> {
  const run = await instanceOf(ctx, instanceId);
  if (!isInitiator(ctx, run) && !administers(ctx.actor)) throw forbidden(ctx.actor, 'only the initiator of an instance or an administrator of the application may urge it');
  requireRunning(run, 'urged');
  const now = ctx.now();
  const pending = await repository.pendingItemsOf(ctx.db, [run.id], [0, 3, 4], null);
  if (pending.length === 0) throw AppError.invalidValue(`instance "${run.id}" waits on nobody: there is no pending to-do to urge`);
  await inTransaction(ctx.db, async (trx) => {
    await repository.lockRun(trx, ctx.dialect, run.id);
    const last = await repository.lastUrged(trx, run.id);
    if (last !== null && now - last < URGE_INTERVAL_MS) {
      throw new AppError(ErrorCode.RateLimited, 429, `instance "${run.id}" was urged at ${iso(last)}; it may be urged again from ${iso(last + URGE_INTERVAL_MS)} (once an hour)`);
    }
    await repository.recordUrge(trx, run.id, ctx.actor.accountId, now);
    for (const item of pending) {
      await notify(trx, { accountIds: [item.assignee_id], kind: 'urge', title: `Reminder: ${item.process_name} (${item.node_name})`, body: item.title, link: `/v3/app/workflow/instance/${run.id}?workId=${item.id}`, appId: run.app_id, at: now }, { mail: ctx.notificationMail });
    }
  });
  return { urged: [...new Set(pending.map((item) => item.assignee_id))] };
}
