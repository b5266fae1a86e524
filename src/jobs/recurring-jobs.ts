import type { Executor } from '../db/connection.js';
import { inTransaction, onCommit } from '../db/transaction.js';
import { enqueueJobs } from './job-queue.js';
import { announceJobs } from './job-signal.js';
import type { JobHandler } from './job-worker.js';

/**
 * Recurring jobs: periodic work (the sweeps) carried by the durable queue rather than by a timer in
 * every process, so that it runs in one process at a time, in a process that runs jobs (WORKERS > 0
 * or `tabularium worker`), and not at all in an API-only one. A kind has one job, whose id is the
 * kind: the primary key of `background_jobs` makes it one pending job over every process. Each
 * process plans it as it starts (an insert that does nothing when it exists); each run queues the
 * next in the commit that ends it, fenced on its lease, so that a run taken over by another worker
 * queues nothing twice.
 */
export interface RecurringJob {
  /** Its job kind, and the id of its one job. */
  kind: string;
  /** Milliseconds from the end of one run to the next; 0 turns it off (no job is kept). */
  everyMs: number;
  /** Milliseconds from the moment it is first planned to its first run. */
  firstAfterMs: number;
  /**
   * One run at `now`. It must be safe to repeat: a worker that dies before the run's last commit
   * leaves the job to another, which runs it again. A long run calls `extendLease` now and then,
   * which throws (stopping the run) when another worker has taken the job over.
   */
  run(now: number, extendLease: () => Promise<void>): Promise<void>;
}

/**
 * Plans each recurring job that is on and has no job yet (due `firstAfterMs` from now), puts back a
 * job that failed every attempt (it would otherwise stay failed), and drops the queued job of one
 * that is off. Called as every process starts; processes starting at once plan each job once.
 * @example await planRecurringJobs(db, [maintenanceSweepJob(...)], Date.now())
 */
export async function planRecurringJobs(db: Executor, jobs: readonly RecurringJob[], now: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const job of jobs) {
      if (job.everyMs <= 0) {
        await trx.deleteFrom('background_jobs').where('id', '=', job.kind).where('status', '=', 'queued').execute();
        continue;
      }
      const runAt = now + job.firstAfterMs;
      await trx
        .insertInto('background_jobs')
        .values({ id: job.kind, kind: job.kind, payload: 'null', status: 'queued', run_at: runAt, max_attempts: 5, locked_by: null, last_error: null, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ status: 'queued', run_at: runAt, attempts: 0 }).where('background_jobs.status', '=', 'failed'))
        .execute();
    }
    onCommit(trx, announceJobs);
  });
}

/**
 * The job handler of a recurring job: runs it, then ends the job and queues the next run (same id)
 * in one commit. A run that fails is retried with backoff as any job; after its last attempt the
 * job waits `everyMs` and starts afresh, its error kept in `last_error`.
 */
export function recurringJobHandler(job: RecurringJob, db: Executor, clock: () => number): JobHandler {
  return {
    kind: job.kind,
    run: async (_claimed, lease) => {
      await job.run(clock(), () => inTransaction(db, (trx) => lease.fence(trx)));
      await inTransaction(db, async (trx) => {
        await lease.finish(trx);
        const now = clock();
        if (job.everyMs > 0) await enqueueJobs(trx, [{ id: job.kind, kind: job.kind, payload: null, runAt: now + job.everyMs }], now);
      });
    },
    giveUp: async () => {
      if (job.everyMs <= 0) return;
      await db.updateTable('background_jobs').set({ status: 'queued', run_at: clock() + job.everyMs, attempts: 0 }).where('id', '=', job.kind).where('status', '=', 'failed').execute();
    },
  };
}
