import { W3_CONNECTIONS, WARM_UP_SECONDS } from '../ceiling.js';
import { loadTarget, type BenchContext } from '../context.js';
import { addOutcomes, runLoad, type LoadOutcome } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { sampleRecordPaths } from './get-by-id.js';

/** Every limit off: the bench's own server, so that its thousands of requests a second are never refused. */
export const LIMITS_OFF = { RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '0', DAILY_QUOTA: '0' };

/** Every limit on (address, credential and daily quota) and too large to be reached: what counting costs. */
export const LIMITS_ON = { RATE_LIMIT: '1000000000', RATE_LIMIT_PER_IP: '1000000000', DAILY_QUOTA: '1000000000' };

/** Restarts the bench server with these settings (same port, same database). */
export type Restart = (env: Record<string, string>) => Promise<void>;

/**
 * W3r: W3 (get by id, 32 connections) with rate limiting on (in-memory counters) against the same with
 * it off, in halves alternating off, on, off, on on a server restarted for each (and warmed up), so
 * that drift over the run falls on both. Target: on >= 90 % of off. Leaves the server limits-off.
 */
export async function getByIdRateLimited(ctx: BenchContext, restart: Restart): Promise<WorkloadResult[]> {
  const paths = ctx.recordPaths ?? (ctx.recordPaths = await sampleRecordPaths(ctx));
  const load = (seconds: number) => runLoad({ ...loadTarget(ctx), method: 'GET', connections: W3_CONNECTIONS, seconds, request: (i) => ({ path: paths[i % paths.length] }) });
  const halves = { off: [] as LoadOutcome[], on: [] as LoadOutcome[] };
  const half = Math.max(1, Math.round(ctx.settings.seconds / 2));
  for (const mode of ['off', 'on', 'off', 'on'] as const) {
    await restart(mode === 'on' ? LIMITS_ON : LIMITS_OFF);
    await load(WARM_UP_SECONDS);
    halves[mode].push(await load(half));
  }
  await restart(LIMITS_OFF);
  const off = addOutcomes(halves.off);
  const on = addOutcomes(halves.on);
  const line = (id: string, title: string, outcome: LoadOutcome, ratio?: number): WorkloadResult => ({
    id,
    title,
    metrics: [
      { label: '', value: outcome.perSecond, unit: 'req/s' },
      ...(ratio === undefined ? [] : [{ label: '=', value: ratio, unit: '% of W3r-off', bound: '>=' as const, target: 90 }]),
      { label: 'p50', value: outcome.latency.p50, unit: 'ms' },
      { label: 'p99', value: outcome.latency.p99, unit: 'ms' },
    ],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome },
  });
  return [
    line('W3r-off', `get record by id, rate limiting off (${W3_CONNECTIONS} conns, 2 x ${half} s)`, off),
    line('W3r', `get record by id, rate limiting on, in memory (${W3_CONNECTIONS} conns, 2 x ${half} s, alternating with W3r-off)`, on, (on.perSecond / off.perSecond) * 100),
  ];
}
