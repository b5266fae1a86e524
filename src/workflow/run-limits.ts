import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { inTransaction, onCommit } from '../db/transaction.js';
import type { RecurringJob } from '../jobs/index.js';
import { noteProcessState } from '../modules/records/index.js';
import { processPatch } from './run-process.js';
import { announceRunEnded } from './run-signal.js';
import { ENDED, readRun, type RunStatus } from './run-store.js';
import type { RunEnding } from './run-todos.js';
import { signalParent } from './run-wake.js';
import { loadVersion } from './versions.js';

/**
 * The limits of `WorkflowDefinition.limits`: how many runs of a workflow run at once, and how long
 * a run may take.
 */

/** Thrown in a run's starting commit when its workflow already has `maxConcurrentRuns` running: rolled back, the run stays queued. */
export class AtCapacity extends Error {
  constructor(workflowId: string, limit: number) {
    super(`workflow ${workflowId} already has ${limit} runs running`);
  }
}

/**
 * Checks, in a run's starting commit, that its workflow has fewer than `limit` other runs running.
 * On PostgreSQL the workflow's row is locked first, so that runs starting at once in several
 * processes count each other (SQLite's single writer serialises them anyway).
 */
export async function admitRun(trx: Executor, dialect: SqlDialect, workflowId: string, runId: string, limit: number): Promise<void> {
  if (dialect.lockRowsSql) await dialect.lockRowsSql('workflows', [workflowId]).execute(trx);
  const row = await trx
    .selectFrom('workflow_runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workflow_id', '=', workflowId)
    .where('status', '=', 'running')
    .where('id', '!=', runId)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= limit) throw new AtCapacity(workflowId, limit);
}

/** How long a run kept queued by the limit waits before it is tried again: about a second, spread so that waiting runs do not all retry at once. */
export function capacityRetryDelay(): number {
  return 750 + Math.floor(Math.random() * 500);
}

/**
 * Ends a run that has not ended, from outside its own jobs (the timeout sweep; a job that gave up;
 * an initiator or an administrator terminating or revoking it): one transaction (joining the
 * caller's, when `db` is one) that moves it to `status` with the reason, ends its waiting step,
 * closes its pending to-dos (`RunTodosPort`), keeps its record's process fields and tells a parent
 * run waiting for it; once committed, a hook call waiting in this process is told. A job of the run
 * committing at the same time either commits first (and this ends the run after it) or finds the
 * run ended (`RunEnded`) and stops. Returns whether this ended it.
 * @example await endRun(db, { dialect, runTodos }, runId, 'aborted', 'terminated by its initiator', now)
 */
export async function endRun(db: Executor, ending: RunEnding, runId: string, status: Extract<RunStatus, 'aborted' | 'failed'>, reason: string, now: number): Promise<boolean> {
  const { dialect, runTodos } = ending;
  return inTransaction(db, async (trx) => {
    const run = await readRun(trx, runId);
    if (!run || ENDED.has(run.status)) return false;
    const result = await trx
      .updateTable('workflow_runs')
      .set({ status, error: reason, ended_at: now, updated_at: now, revision: sql`revision + 1` })
      .where('id', '=', runId)
      .where('ended_at', 'is', null)
      .where('status', 'not in', [...ENDED])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await trx.updateTable('workflow_steps').set({ status: 'done', exit: status, ended_at: now }).where('run_id', '=', runId).where('status', '=', 'waiting').execute();
    await runTodos.closePending(trx, runId, now);
    const loaded = await loadVersion(trx, run.workflowId, run.version);
    if (loaded.showsProcess && run.worksheetId && run.rowId) {
      const patch = processPatch({ before: run.status, after: status, processName: loaded.definition.name, initiatorId: run.initiatorId, startedAt: run.startedAt, now });
      if (patch) await noteProcessState(trx, dialect, run.worksheetId, run.rowId, patch);
    }
    await signalParent(trx, run, status, undefined, now);
    onCommit(trx, () => announceRunEnded(runId));
    return true;
  });
}

/** How many timed-out runs one sweep ends at most; the next sweep goes on. */
const SWEEP_BATCH = 500;

/** The job kind (and id) of the timeout sweep. */
export const TIMEOUT_SWEEP_JOB = 'sweep.workflow-timeouts';

/**
 * The timeout sweep as a recurring job, once a minute in one process with workers: a run is
 * aborted at most a minute (plus the worker's poll) after its timeout.
 */
export function timeoutSweepJob(db: Executor, ending: RunEnding, log: FastifyBaseLogger): RecurringJob {
  return {
    kind: TIMEOUT_SWEEP_JOB,
    everyMs: 60_000,
    firstAfterMs: 60_000,
    run: async (now) => {
      await sweepTimedOutRuns(db, ending, now, log);
    },
  };
}

/**
 * Aborts the runs whose timeout (`limits.timeoutSeconds` after their trigger) has passed; run by
 * `timeoutSweepJob`. Two sweeps at once end each run once (`endRun`). Returns how many runs it ended.
 */
export async function sweepTimedOutRuns(db: Executor, ending: RunEnding, now: number, log?: FastifyBaseLogger): Promise<number> {
  const due = await db
    .selectFrom('workflow_runs')
    .select(['id', 'timeout_at', 'started_at'])
    .where('timeout_at', 'is not', null)
    .where('ended_at', 'is', null)
    .where('timeout_at', '<=', now)
    .orderBy('timeout_at')
    .limit(SWEEP_BATCH)
    .execute();
  let ended = 0;
  for (const run of due) {
    const seconds = Math.round((Number(run.timeout_at) - Number(run.started_at)) / 1000);
    try {
      if (await endRun(db, ending, run.id, 'aborted', `aborted: the run did not end within its timeout of ${seconds} s`, now)) ended += 1;
    } catch (error) {
      log?.error({ err: error, runId: run.id }, 'aborting a timed-out workflow run failed');
    }
  }
  return ended;
}
