import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeApi } from '../helpers/api-harness.js';
import { claimJobs, enqueueJobs, JobWorker, LeaseLost, retryDelay, type JobHandler } from '../../src/jobs/index.js';
import { inTransaction } from '../../src/db/transaction.js';

let now = Date.UTC(2026, 10, 25, 9);
const clock = () => now;

describeApi(
  'durable job queue: fenced claims, retries with backoff, giving up',
  (ctx) => {
    const marks: string[] = [];
    const worker = (handlers: JobHandler[], leaseMs = 60_000) =>
      new JobWorker({ db: ctx.database.db, dialect: ctx.database.dialect, handlers, clock, log: ctx.app.log, concurrency: 2, pollMs: 1000, leaseMs });

    it('lets a second worker take over a job whose lease ran out, and refuses the first one\'s late commit', async () => {
      await sql`CREATE TABLE job_marks (job_id TEXT NOT NULL, by_worker TEXT NOT NULL)`.execute(ctx.database.db);
      const [id] = await enqueueJobs(ctx.database.db, [{ kind: 'mark', payload: { n: 1 } }], now);
      // Worker A claims it, then stalls past its lease.
      const [held] = await claimJobs(ctx.database.db, ctx.database.dialect, ['mark'], 1, now, 1000);
      expect(held.id).toBe(id);
      now += 5000;
      const marking = (by: string): JobHandler => ({
        kind: 'mark',
        run: async (job, lease) => {
          await inTransaction(ctx.database.db, async (trx) => {
            await sql`INSERT INTO job_marks (job_id, by_worker) VALUES (${job.id}, ${by})`.execute(trx);
            await lease.finish(trx);
          });
        },
      });
      expect(await worker([marking('B')]).runUntilIdle()).toBe(1);
      // A wakes and tries to commit its work fenced on its old claim: rolled back.
      await expect(
        inTransaction(ctx.database.db, async (trx) => {
          await sql`INSERT INTO job_marks (job_id, by_worker) VALUES (${held.id}, ${'A'})`.execute(trx);
          await (await import('../../src/jobs/job-queue.js')).finishJob(trx, held);
        }),
      ).rejects.toBeInstanceOf(LeaseLost);
      const rows = await sql<{ by_worker: string }>`SELECT by_worker FROM job_marks`.execute(ctx.database.db);
      expect(rows.rows.map((r) => r.by_worker)).toEqual(['B']);
      expect(await ctx.database.db.selectFrom('background_jobs').select('id').execute()).toEqual([]);
    });

    it('tries a failing job again after 1 s, then 2 s, and finishes it when it succeeds', async () => {
      let calls = 0;
      const flaky = worker([
        {
          kind: 'flaky',
          run: () => {
            calls += 1;
            marks.push(`try ${calls}`);
            return calls < 3 ? Promise.reject(new Error(`boom ${calls}`)) : Promise.resolve();
          },
        },
      ]);
      await enqueueJobs(ctx.database.db, [{ kind: 'flaky', payload: null }], now);
      expect(await flaky.runUntilIdle()).toBe(1);
      const waiting = await ctx.database.db.selectFrom('background_jobs').selectAll().executeTakeFirstOrThrow();
      expect([waiting.status, Number(waiting.run_at) - now, waiting.last_error]).toEqual(['queued', retryDelay(1), 'boom 1']);
      expect(await flaky.runUntilIdle()).toBe(0); // not due yet
      now += retryDelay(1);
      expect(await flaky.runUntilIdle()).toBe(1);
      now += retryDelay(2);
      expect(await flaky.runUntilIdle()).toBe(1);
      expect(marks).toEqual(['try 1', 'try 2', 'try 3']);
      expect(await ctx.database.db.selectFrom('background_jobs').select('id').execute()).toEqual([]);
    });

    it('marks a job failed after its last attempt and tells its handler', async () => {
      const gaveUp: string[] = [];
      const hopeless = worker([{ kind: 'hopeless', run: () => Promise.reject(new Error('always')), giveUp: (job, error) => Promise.resolve(void gaveUp.push(`${job.id}: ${(error as Error).message}`)) }]);
      const [id] = await enqueueJobs(ctx.database.db, [{ kind: 'hopeless', payload: null, maxAttempts: 2 }], now);
      await hopeless.runUntilIdle();
      now += retryDelay(1);
      await hopeless.runUntilIdle();
      now += 3_600_000;
      expect(await hopeless.runUntilIdle()).toBe(0);
      const row = await ctx.database.db.selectFrom('background_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect([row.status, Number(row.attempts), row.last_error]).toEqual(['failed', 2, 'always']);
      expect(gaveUp).toEqual([`${id}: always`]);
    });
  },
  { WORKERS: '0' },
  { clock, sweeps: false },
);
