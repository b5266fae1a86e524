import type { Executor } from '../../db/connection.js';
import { inTransaction, onCommit } from '../../db/transaction.js';
import { announceJobs, enqueueJobs } from '../../jobs/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { createRuns, ENDED_STATUSES, inputFields, inputsOf, onRunEnded, readInputs, RUN_JOB, TriggerType } from '../../workflow/index.js';
import * as repository from './repository.js';
import { findHookProcess } from './service.js';

/** The first look for a run ended elsewhere; the gap doubles to `MAX_POLL_MS`. */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 500;

/** Resolves after `ms`, or at once when `runId` ends in this process. */
function pause(runId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = onRunEnded(runId, done);
  });
}

/**
 * Waits up to `waitMs` (real time, whatever the service clock says) for a run to end: woken at once
 * when a worker of this process ends it, polling for one ended by another process.
 */
async function waitForRun(db: Executor, runId: string, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (let gap = FIRST_POLL_MS; ; gap = Math.min(gap * 2, MAX_POLL_MS)) {
    const run = await repository.runEnd(db, runId);
    if (run && ENDED_STATUSES.has(run.status)) return run;
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await pause(runId, Math.min(gap, left));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Starts a webhook or API process with a call's inputs (`POST /v3/app/workflow/hooks/{process_id}`)
 * and answers its outputs when the run ends within `waitMs`, else `{runId}` (the run goes on; its
 * history has the result). A run that ended without passing is 99999 naming the run and its error.
 * @example await triggerHook(ctx, processId, { amount: 12 }, 10_000) // { total: 24 } — the return node's outputs
 */
export async function triggerHook(ctx: ServiceContext, processId: string, body: unknown, waitMs: number): Promise<Record<string, unknown>> {
  if (body !== undefined && body !== null && !isObject(body)) throw AppError.invalidParameters('the body must be a JSON object of the process inputs, by name or alias');
  const { workflow, definition } = await findHookProcess(ctx, processId);
  if (workflow.status !== 'published') throw AppError.invalidValue(`process "${workflow.name}" is closed; publish it again to trigger it`);
  const parameters = inputsOf(definition.trigger);
  // An API process takes only its declared inputs; a webhook keeps whatever else the caller sends.
  const inputs = readInputs(parameters, (body ?? {}) as Record<string, unknown>, { strict: definition.trigger.type === TriggerType.api, timeZone: ctx.timeZone });
  const fields = inputFields(parameters, inputs);
  const now = ctx.now();
  const runId = await inTransaction(ctx.db, async (trx) => {
    const [id] = await createRuns(trx, [{ workflowId: workflow.id, version: workflow.version, appId: ctx.actor.appId, worksheetId: null, rowId: null, trigger: { kind: 'hook', inputs, fields }, initiatorId: ctx.actor.accountId, chainDepth: 0 }], now);
    await enqueueJobs(trx, [{ kind: RUN_JOB, payload: { runId: id } }], now);
    onCommit(trx, announceJobs);
    return id;
  });
  const ended = waitMs > 0 ? await waitForRun(ctx.db, runId, waitMs) : null;
  if (!ended) return { runId };
  if (ended.status !== 'passed') throw new AppError(ErrorCode.DataOperationFailed, 500, `run ${runId} of process "${workflow.name}" ended ${ended.status}${ended.error ? `: ${ended.error}` : ''}`);
  return ended.outputs ? (JSON.parse(ended.outputs) as Record<string, unknown>) : {};
}
