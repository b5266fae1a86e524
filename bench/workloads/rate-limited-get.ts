import { W3_CONNECTIONS, WARM_UP_SECONDS } from '../ceiling.js';
import type { BenchContext } from '../context.js';
import { addOutcomes, runLoad, type LoadOutcome } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import type { ServerProcess } from '../server-process.js';
import { sampleRecordPaths } from './get-by-id.js';

/** Every limit off: the bench's own server, so that its thousands of requests a second are never refused. */
export const LIMITS_OFF = { RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '0', DAILY_QUOTA: '0' };

/** Every limit on (address, credential and daily quota) and too large to be reached: what counting costs. */
export const LIMITS_ON = { RATE_LIMIT: '1000000000', RATE_LIMIT_PER_IP: '1000000000', DAILY_QUOTA: '1000000000' };

/** Servers of their own for one workload, on the bench's database, each with its settings. */
export interface SideBySide {
  /** Stops the bench's server and starts one server per settings, each on a port of its own. */
  start(envs: Array<Record<string, string>>): Promise<ServerProcess[]>;
  /** Stops them and starts the bench's server again. */
  end(servers: ServerProcess[]): Promise<void>;
}

/** Seconds of one burst: long enough for autocannon's one-second ticks, short enough to alternate often. */
const BURST_SECONDS = 1;
/** Pairs of bursts at least (BENCH_QUICK's 3 s would give 3): the median of fewer is one disturbed burst away. */
const MIN_PAIRS = 6;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * W3r: W3 (get by id, 32 connections) with rate limiting on (in-memory counters) against the same
 * with it off, on two servers running side by side on the bench's database, both warmed up, then
 * driven in one-second bursts alternating off/on and on/off (as many pairs as W3 has seconds, at least 6).
 * The figure is the median over the pairs of bursts of on's req/s divided by off's: on a shared
 * machine a pair sees the same load, and a burst another process disturbed moves one pair, not the
 * sum. Target: on >= 90 % of off.
 */
export async function getByIdRateLimited(ctx: BenchContext, servers: SideBySide): Promise<WorkloadResult[]> {
  const paths = ctx.recordPaths ?? (ctx.recordPaths = await sampleRecordPaths(ctx));
  const [off, on] = await servers.start([LIMITS_OFF, LIMITS_ON]);
  const bursts = { off: [] as LoadOutcome[], on: [] as LoadOutcome[] };
  const ratios: number[] = [];
  try {
    const load = (target: ServerProcess, seconds: number) =>
      runLoad({
        baseUrl: target.baseUrl,
        headers: ctx.headers,
        serverCpuSeconds: () => target.cpuSeconds(),
        method: 'GET',
        connections: W3_CONNECTIONS,
        seconds,
        request: (i) => ({ path: paths[i % paths.length] }),
      });
    // Both run optimised code when measured, as W3 does after its warm-up.
    for (const target of [off, on, off, on]) await load(target, WARM_UP_SECONDS);
    for (let pair = 0; pair < Math.max(MIN_PAIRS, ctx.settings.seconds); pair += 1) {
      const order = pair % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
      const outcomes = { off: undefined as LoadOutcome | undefined, on: undefined as LoadOutcome | undefined };
      for (const mode of order) outcomes[mode] = await load(mode === 'on' ? on : off, BURST_SECONDS);
      bursts.off.push(outcomes.off!);
      bursts.on.push(outcomes.on!);
      ratios.push((outcomes.on!.perSecond / outcomes.off!.perSecond) * 100);
    }
  } finally {
    await servers.end([off, on]);
  }
  const offTotal = addOutcomes(bursts.off);
  const onTotal = addOutcomes(bursts.on);
  const pairs = ratios.length;
  const line = (id: string, title: string, outcome: LoadOutcome, ratio?: number): WorkloadResult => ({
    id,
    title,
    metrics: [
      { label: '', value: outcome.perSecond, unit: 'req/s' },
      ...(ratio === undefined ? [] : [{ label: '=', value: ratio, unit: '% of W3r-off (median of the pairs)', bound: '>=' as const, target: 90 }]),
      { label: 'p50', value: outcome.latency.p50, unit: 'ms' },
      { label: 'p99', value: outcome.latency.p99, unit: 'ms' },
    ],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome, ...(ratio === undefined ? { pid: off.pid } : { pid: on.pid, pairRatios: ratios, ratioOfTotals: (onTotal.perSecond / offTotal.perSecond) * 100 }) },
  });
  return [
    line('W3r-off', `get record by id, rate limiting off (${W3_CONNECTIONS} conns, ${pairs} x ${BURST_SECONDS} s)`, offTotal),
    line('W3r', `get record by id, rate limiting on, in memory (${W3_CONNECTIONS} conns, ${pairs} x ${BURST_SECONDS} s, alternating with W3r-off beside it)`, onTotal, median(ratios)),
  ];
}
