import { CompiledQuery, sql } from 'kysely';
import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { cachedSqlText, executeCached } from '../db/sql-text-cache.js';
import { newRowId } from '../shared/ids.js';

/**
 * The durable job queue's SQL. A job is a row of `background_jobs`; it is due while `status` is
 * queued (or running with an expired lease: its claimer died) and `run_at` has passed. Claiming
 * sets `run_at` to the end of the claimer's lease and `locked_by` to a token of that claim; every
 * later change by the claimer is fenced on that token, so a claimer whose lease was taken over
 * changes nothing (its transaction is rolled back) and each job's work commits once.
 */

/** A job to put on the queue. */
export interface NewJob {
  kind: string;
  payload: unknown;
  /** Epoch ms it becomes due; now when absent. */
  runAt?: number;
  /** Attempts before it is marked failed (default 5). */
  maxAttempts?: number;
  /** Its id (idempotent enqueues use a known id); a new one when absent. */
  id?: string;
}

/** A job this worker holds. */
export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  /** 1 on the first attempt. */
  attempt: number;
  maxAttempts: number;
  /** The claim's fencing token. */
  token: string;
}

/** Thrown when a claimer's lease was taken over by another worker: roll back and let go. */
export class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`the lease of job ${jobId} was taken over by another worker`);
  }
}

/**
 * Puts jobs on the queue in the caller's transaction: they become visible with its commit, and
 * vanish with its rollback (the outbox of house rule 6).
 * @example await enqueueJobs(trx, [{ kind: 'workflow.run', payload: { runId } }], now)
 */
export async function enqueueJobs(db: Executor, jobs: NewJob[], now: number): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows = jobs.map((job) => ({
    id: job.id ?? newRowId(),
    kind: job.kind,
    payload: JSON.stringify(job.payload ?? null),
    status: 'queued',
    run_at: job.runAt ?? now,
    max_attempts: job.maxAttempts ?? 5,
    locked_by: null,
    last_error: null,
    created_at: now,
  }));
  // Every trigger enqueues: the statement's text is built once per number of jobs.
  const parameters = rows.flatMap((r) => [r.id, r.kind, r.payload, r.status, r.run_at, r.max_attempts, r.locked_by, r.last_error, r.created_at]);
  await executeCached(db, `jobs|enqueue|${rows.length}`, () => db.insertInto('background_jobs').values(rows), parameters);
  return rows.map((r) => r.id);
}

/**
 * Claims up to `limit` due jobs of the given kinds for `leaseMs`, oldest due first. Its SQL is built
 * once per number of kinds (it runs for every job); its `status IN ('queued', 'running')` is the
 * condition of the partial index `background_jobs_claimable` word for word (migration 0031).
 */
export async function claimJobs(db: Executor, dialect: SqlDialect, kinds: readonly string[], limit: number, now: number, leaseMs: number): Promise<ClaimedJob[]> {
  if (kinds.length === 0 || limit <= 0) return [];
  const token = newRowId();
  const lock = dialect.skipLocked ? sql` FOR UPDATE SKIP LOCKED` : sql``;
  const claim = (leaseEnd: number, dueBy: number, kindList: readonly string[], count: number) => sql<ClaimedRow>`
    UPDATE background_jobs SET status = 'running', locked_by = ${token}, run_at = ${leaseEnd}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM background_jobs
      WHERE status IN ('queued', 'running') AND run_at <= ${dueBy} AND kind IN (${sql.join(kindList)})
      ORDER BY run_at LIMIT ${count}${lock}
    )
    RETURNING id, kind, payload, attempts, max_attempts`;
  const text = cachedSqlText(dialect, `jobs|claim|${kinds.length}`, () => claim(0, 0, kinds, 0).compile(db).sql);
  const result = await db.executeQuery<ClaimedRow>(CompiledQuery.raw(text, [token, now + leaseMs, now, ...kinds, limit]));
  return result.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    payload: JSON.parse(row.payload) as unknown,
    attempt: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    token,
  }));
}

interface ClaimedRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number | string;
  max_attempts: number | string;
}

/** Fences the caller's transaction on its claim: throws `LeaseLost` when another worker holds the job now. Extends the lease. */
export async function fenceJob(trx: Executor, job: ClaimedJob, leaseEnd: number): Promise<void> {
  const build = () => trx.updateTable('background_jobs').set({ run_at: 0 }).where('id', '=', '').where('locked_by', '=', '').where('status', '=', 'running');
  const result = await executeCached(trx, 'jobs|fence', build, [leaseEnd, job.id, job.token, 'running']);
  if (Number(result.numAffectedRows ?? 0) !== 1) throw new LeaseLost(job.id);
}

/** Removes a done job, fenced on the claim. */
export async function finishJob(trx: Executor, job: ClaimedJob): Promise<void> {
  const result = await executeCached(trx, 'jobs|finish', () => trx.deleteFrom('background_jobs').where('id', '=', '').where('locked_by', '=', ''), [job.id, job.token]);
  if (Number(result.numAffectedRows ?? 0) !== 1) throw new LeaseLost(job.id);
}

/** Puts a claimed job back on the queue, due at `runAt`; `error` when it failed (kept for inspection). */
export async function requeueJob(db: Executor, job: ClaimedJob, runAt: number, error: string | null, resetAttempts = false): Promise<boolean> {
  const result = await db
    .updateTable('background_jobs')
    .set({ status: 'queued', run_at: runAt, locked_by: null, last_error: error, ...(resetAttempts ? { attempts: 0 } : {}) })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a claimed job failed for good: it stays in the table, never due again. */
export async function failJob(db: Executor, job: ClaimedJob, error: string): Promise<boolean> {
  const result = await db.updateTable('background_jobs').set({ status: 'failed', locked_by: null, last_error: error }).where('id', '=', job.id).where('locked_by', '=', job.token).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many jobs wait or run, by kind (for the health report and tests). */
export async function pendingJobCounts(db: Executor): Promise<Map<string, number>> {
  const rows = await db.selectFrom('background_jobs').select(['kind', (eb) => eb.fn.countAll<number | string>().as('n')]).where('status', 'in', ['queued', 'running']).groupBy('kind').execute();
  return new Map(rows.map((r) => [r.kind, Number(r.n)]));
}
