import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import { sweepExpired as sweepAccessTokens } from '../modules/access-tokens/index.js';
import { sweepExpired as sweepOAuth } from '../modules/oauth/index.js';
import { sweepExpired as sweepSignIn } from '../modules/sign-in/index.js';

/**
 * The maintenance sweep: removes the rows of credentials that can no longer be used, each module by
 * its own rules (its `sweepExpired`). Self-contained on purpose: `jobs/` is where the durable job
 * queue will live, and this becomes one of its recurring jobs then. Every process may run it; each
 * delete is idempotent, so two processes sweeping at once only repeat each other's work.
 */

/** How many rows one sweep removed, by kind. */
export interface SweepCounts {
  sessions: number;
  signInFailures: number;
  oauthTokens: number;
  oauthCodes: number;
  accessTokens: number;
}

export interface MaintenanceContext {
  db: Executor;
}

/**
 * One sweep at `now` (epoch ms): expired sessions and old sign-in failures, spent OAuth codes and
 * dead token families, personal access tokens ended more than 30 days ago.
 * @example const counts = await runMaintenanceSweep({ db }, Date.now()); counts.sessions
 */
export async function runMaintenanceSweep(ctx: MaintenanceContext, now: number): Promise<SweepCounts> {
  return { ...(await sweepSignIn(ctx.db, now)), ...(await sweepOAuth(ctx.db, now)), ...(await sweepAccessTokens(ctx.db, now)) };
}

/** A running schedule of sweeps. */
export interface MaintenanceSweep {
  /** Resolves when no sweep is running (the one in progress has finished). */
  idle(): Promise<void>;
  /** No further sweep starts; resolves when the one in progress has finished. */
  stop(): Promise<void>;
}

export interface SweepSchedule extends MaintenanceContext {
  clock: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'debug' | 'error'>;
  /** Minutes between sweeps (SWEEP_INTERVAL_MINUTES); 0: none. */
  intervalMinutes: number;
}

/**
 * Sweeps once now, then every `intervalMinutes`, one sweep at a time, on a timer that does not keep
 * the process alive; a failed sweep is logged and tried again at the next tick. Null when the
 * interval is 0 (SWEEP_INTERVAL_MINUTES=0: sweep with `tabularium sweep` from cron instead).
 * @example const sweep = startMaintenanceSweep({ db, clock: Date.now, log, intervalMinutes: 60 }); … await sweep?.stop()
 */
export function startMaintenanceSweep(schedule: SweepSchedule): MaintenanceSweep | null {
  if (schedule.intervalMinutes === 0) return null;
  const { log } = schedule;
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = runMaintenanceSweep(schedule, schedule.clock())
      .then(
        (counts) => {
          const removed = Object.values(counts).reduce((sum, n) => sum + n, 0);
          if (removed > 0) log.info({ sweep: counts }, `maintenance sweep removed ${removed} expired rows`);
          else log.debug('maintenance sweep: nothing expired');
        },
        (error: unknown) => log.error({ err: error }, `the maintenance sweep failed; it runs again in ${schedule.intervalMinutes} minutes`),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, schedule.intervalMinutes * 60_000).unref();
  tick();
  return {
    idle: async () => {
      await running;
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
