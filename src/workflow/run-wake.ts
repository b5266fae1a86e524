import type { Executor } from '../db/connection.js';
import { onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs } from '../jobs/index.js';
import { RUN_JOB } from './definition.js';
import type { RunJobPayload } from './runner.js';
import { parentOf } from './run-starter.js';
import type { RunRow, RunStatus } from './run-store.js';

/**
 * Waking waiting runs from a transaction: a to-do decided, a sub-process's run ended. Apart from the
 * runner, so that every path that ends a run (the runner, `endRun`) tells the parent the same way.
 */

/**
 * A sub-process's run that ended tells the parent run waiting for it (`sub_process` with `wait`),
 * in the transaction that ends it: `{runId, status, outputs}`. Every path that ends a run calls it.
 */
export async function signalParent(trx: Executor, run: Pick<RunRow, 'id' | 'trigger'>, status: RunStatus, outputs: unknown, now: number): Promise<void> {
  const parent = parentOf(run.trigger);
  if (parent) await signalRun(trx, parent.runId, parent.nodeAlias, parent.seq, { runId: run.id, status, outputs: outputs ?? null }, now);
}

/**
 * Wakes a waiting run with a signal (a to-do decided), in the caller's transaction: the run goes on
 * after it commits. `seq` is the waiting step's number, so that a late signal for an earlier wait
 * is dropped.
 * @example await signalRun(trx, run.id, 'approve_1', run.stepCount, { decision: 'approved' }, now)
 */
export async function signalRun(trx: Executor, runId: string, nodeAlias: string, seq: number, data: Record<string, unknown>, now: number): Promise<void> {
  const payload: RunJobPayload = { runId, signal: { nodeAlias, seq, data } };
  await enqueueJobs(trx, [{ kind: RUN_JOB, payload }], now);
  onCommit(trx, announceJobs);
}
