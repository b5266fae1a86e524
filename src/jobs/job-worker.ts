import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { newRowId } from '../shared/ids.js';
import { claimJobs, failJob, fenceJob, finishJob, LeaseLost, requeueJob, type ClaimedJob } from './job-queue.js';
import { onJobsAnnounced } from './job-signal.js';

/** What a handler gets with its job: its lease, to fence its transactions on, and how to end it. */
export interface Lease {
  /** Throws `LeaseLost` in `trx` when another worker took the job over; extends the lease otherwise. Call it in every transaction that commits the job's work (or `finish` instead). */
  fence(trx: Executor): Promise<void>;
  /** Deletes the job in `trx`, fenced as `fence` is: its work is done when `trx` commits. */
  finish(trx: Executor): Promise<void>;
  /** Puts the job back, due at `runAt` (a wait), with its attempts counted afresh. */
  postpone(runAt: number): Promise<void>;
}

/**
 * Thrown by a handler for a failure that trying again cannot mend (a recipient the mail server
 * refused for good): the job is marked failed at once, its remaining attempts unused.
 * @example throw new PermanentJobFailure('the SMTP server refused ann@example.com: 550 no such user')
 */
export class PermanentJobFailure extends Error {}

/**
 * One kind of job and what runs it. `run` should finish the job (`lease.finish`) in the transaction
 * that commits its last work, so that the work and the job's end commit together; if it returns
 * without, the worker deletes the job. A thrown error retries the job with backoff; after the last
 * attempt, or at once for a `PermanentJobFailure`, the job is marked failed and `giveUp` is told.
 */
export interface JobHandler {
  kind: string;
  run(job: ClaimedJob, lease: Lease): Promise<void>;
  giveUp?(job: ClaimedJob, error: unknown): Promise<void>;
}

export interface JobWorkerOptions {
  db: Executor;
  dialect: SqlDialect;
  handlers: JobHandler[];
  clock: () => number;
  log: FastifyBaseLogger;
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** How often an idle worker looks for due jobs (ms). */
  pollMs: number;
  /** How long a claim holds a job before another worker may take it over (ms). */
  leaseMs: number;
}

/** The delay before attempt n+1: 1 s, 2 s, 4 s … capped at 5 minutes. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Claims due jobs and runs them, up to `concurrency` at a time: polled every `pollMs`, and at once
 * when this process announces jobs. Several workers (in one process or many, on one PostgreSQL)
 * share the queue; each job's work commits once (`job-queue.ts`).
 */
export class JobWorker {
  readonly id = newRowId();
  private readonly handlers: Map<string, JobHandler>;
  private readonly kinds: string[];
  private readonly active = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: JobWorkerOptions) {
    this.handlers = new Map(options.handlers.map((h) => [h.kind, h]));
    this.kinds = [...this.handlers.keys()];
  }

  /** Starts polling. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = onJobsAnnounced(() => this.wake());
    this.loop = this.poll();
  }

  /** Looks for due jobs now. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming and waits for the jobs it runs. Jobs it held but did not finish are taken over after their lease. */
  async close(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.active]);
  }

  /**
   * Runs due jobs until none is due (jobs that become due meanwhile included): for tests with a
   * fixed clock and for `tabularium worker --once`. Returns how many ran.
   */
  async runUntilIdle(limit = 100_000): Promise<number> {
    let ran = 0;
    while (ran < limit) {
      const jobs = await this.claim(this.options.concurrency);
      if (jobs.length === 0) return ran;
      ran += jobs.length;
      await Promise.all(jobs.map((job) => this.execute(job)));
    }
    return ran;
  }

  private claim(limit: number): Promise<ClaimedJob[]> {
    const { db, dialect, clock, leaseMs } = this.options;
    return claimJobs(db, dialect, this.kinds, limit, clock(), leaseMs);
  }

  private async poll(): Promise<void> {
    while (this.running) {
      this.woken = false;
      const free = this.options.concurrency - this.active.size;
      let claimed = 0;
      // Claims come in batches: a slot freed while others still run waits until half are free, so
      // that one claim (one commit) starts several jobs when they queue up.
      if (free > 0 && (this.active.size === 0 || free >= Math.ceil(this.options.concurrency / 2))) {
        try {
          const jobs = await this.claim(free);
          claimed = jobs.length;
          if (claimed > 0) this.options.log.debug({ worker: this.id, jobs: claimed }, 'claimed background jobs');
          for (const job of jobs) this.track(this.execute(job));
        } catch (error) {
          this.options.log.error({ err: error }, 'claiming background jobs failed');
        }
      }
      // A full claim may leave more due: look again at once; otherwise wait for a nudge, a free slot or the poll.
      if (this.running && !this.woken && (claimed === 0 || claimed < free)) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      timer.unref();
      this.wakeUp = done;
    });
  }

  private track(work: Promise<void>): void {
    this.active.add(work);
    void work.finally(() => {
      this.active.delete(work);
      this.wakeUp?.();
    });
  }

  private leaseOf(job: ClaimedJob, ended: { done: boolean }): Lease {
    const { db, clock, leaseMs } = this.options;
    return {
      fence: (trx) => fenceJob(trx, job, clock() + leaseMs),
      finish: async (trx) => {
        await finishJob(trx, job);
        ended.done = true;
      },
      postpone: async (runAt) => {
        if (!(await requeueJob(db, job, runAt, null, true))) throw new LeaseLost(job.id);
        ended.done = true;
      },
    };
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { db, clock, log } = this.options;
    const handler = this.handlers.get(job.kind)!;
    const ended = { done: false };
    try {
      if (job.attempt > job.maxAttempts) throw new Error(`gave up after ${job.maxAttempts} attempts whose workers stopped before finishing`);
      await handler.run(job, this.leaseOf(job, ended));
      if (!ended.done) await finishJob(db, job);
    } catch (error) {
      if (error instanceof LeaseLost) {
        log.warn({ jobId: job.id, kind: job.kind }, error.message);
        return;
      }
      try {
        if (job.attempt >= job.maxAttempts || error instanceof PermanentJobFailure) {
          log.error({ err: error, jobId: job.id, kind: job.kind }, 'background job failed for good');
          if (await failJob(db, job, messageOf(error))) await handler.giveUp?.(job, error);
        } else {
          log.warn({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempt }, 'background job failed; it will be tried again');
          await requeueJob(db, job, clock() + retryDelay(job.attempt), messageOf(error));
        }
      } catch (secondary) {
        log.error({ err: secondary, jobId: job.id }, 'recording a failed background job failed');
      }
    }
  }
}
