import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import { sweepVectorChanges } from '../knowledge/store/vector-changes.js';
import { sweepExpired as sweepAccessTokens } from '../modules/access-tokens/index.js';
import { sweepExpired as sweepOAuth } from '../modules/oauth/index.js';
import { sweepExpired as sweepSignIn } from '../modules/sign-in/index.js';
import type { RecurringJob } from './recurring-jobs.js';

/**
 * The maintenance sweep: removes the rows of credentials that can no longer be used, each module by
 * its own rules (its `sweepExpired`): a recurring job of the queue (`maintenanceSweepJob`), and
 * `tabularium sweep` by hand. Each delete is idempotent, so a sweep by hand beside the job's, or a
 * job's sweep repeated after a crash, only repeats work.
 */

/** How many rows one sweep removed, by kind. */
export interface SweepCounts {
  sessions: number;
  signInFailures: number;
  oauthTokens: number;
  oauthCodes: number;
  accessTokens: number;
  /** Entries of the knowledge vector change log older than an hour. */
  vectorChanges: number;
}

export interface MaintenanceContext {
  db: Executor;
}

/**
 * One sweep at `now` (epoch ms): expired sessions and old sign-in failures, spent OAuth codes and
 * dead token families, personal access tokens ended more than 30 days ago, the knowledge vector
 * change log's entries older than an hour.
 * @example const counts = await runMaintenanceSweep({ db }, Date.now()); counts.sessions
 */
export async function runMaintenanceSweep(ctx: MaintenanceContext, now: number): Promise<SweepCounts> {
  return { ...(await sweepSignIn(ctx.db, now)), ...(await sweepOAuth(ctx.db, now)), ...(await sweepAccessTokens(ctx.db, now)), ...(await sweepVectorChanges(ctx.db, now)) };
}

/** The job kind (and id) of the maintenance sweep. */
export const MAINTENANCE_SWEEP_JOB = 'sweep.maintenance';

export interface MaintenanceSchedule extends MaintenanceContext {
  log: Pick<FastifyBaseLogger, 'info' | 'debug'>;
  /** Minutes between sweeps (SWEEP_INTERVAL_MINUTES); 0: none. */
  intervalMinutes: number;
}

/**
 * The maintenance sweep as a recurring job: due as soon as it is first planned, then every
 * `intervalMinutes`; off with 0 (SWEEP_INTERVAL_MINUTES=0: sweep with `tabularium sweep` from cron
 * instead). A sweep that removed something logs the counts.
 * @example recurringJobHandler(maintenanceSweepJob({ db, log, intervalMinutes: 60 }), db, clock)
 */
export function maintenanceSweepJob(schedule: MaintenanceSchedule): RecurringJob {
  const { log } = schedule;
  return {
    kind: MAINTENANCE_SWEEP_JOB,
    everyMs: schedule.intervalMinutes * 60_000,
    firstAfterMs: 0,
    run: async (now) => {
      const counts = await runMaintenanceSweep(schedule, now);
      const removed = Object.values(counts).reduce((sum, n) => sum + n, 0);
      if (removed > 0) log.info({ sweep: counts }, `maintenance sweep removed ${removed} expired rows`);
      else log.debug('maintenance sweep: nothing expired');
    },
  };
}
