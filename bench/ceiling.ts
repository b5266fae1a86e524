import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { BenchContext } from './context.js';
import { runLoad, type LoadOutcome } from './load.js';
import { cpuCost, type WorkloadResult } from './report.js';
import { cpuSecondsOf, freePort, projectRoot } from './server-process.js';
/** W3's connections: the ceiling is driven exactly like W3. */
export const W3_CONNECTIONS = 32;
/** An unmeasured run before the first measurement, as before W3. */
export const WARM_UP_SECONDS = 1;

/** The bare Fastify route of ceiling-server.ts, running as its own process. */
export interface Ceiling {
  baseUrl: string;
  /** Bytes of the constant body it answers with. */
  bodyBytes: number;
  measure(ctx: BenchContext): Promise<LoadOutcome>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Takes one record's response from the real server and starts the ceiling route answering it. */
export async function startCeiling(ctx: BenchContext, logFile: string): Promise<Ceiling> {
  const paths = ctx.recordPaths!;
  const response = await fetch(`${ctx.server.baseUrl}${paths[0]}`, { headers: Object.fromEntries(Object.entries(ctx.headers).filter(([name]) => name !== 'content-type')) });
  const body = await response.text();
  if (!response.ok) throw new Error(`the record for the ceiling could not be read: HTTP ${response.status} ${body.slice(0, 300)}`);
  const port = await freePort();
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ceiling-server.ts'], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: 'production', CEILING_PORT: String(port), CEILING_BODY: body },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited(child);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ceiling server exited with code ${child.exitCode}; see ${logFile}`);
    if (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ceiling server did not start within 30 s; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const measure = (run: BenchContext, seconds = run.settings.seconds): Promise<LoadOutcome> =>
    runLoad({
      baseUrl,
      headers: run.headers,
      serverCpuSeconds: () => cpuSecondsOf(child.pid!),
      method: 'GET',
      connections: W3_CONNECTIONS,
      seconds,
      request: (i) => ({ path: paths[i % paths.length] }),
    });
  // A fresh process runs its first thousands of requests unoptimised: warmed like W3's server.
  await measure(ctx, WARM_UP_SECONDS);
  return { baseUrl, bodyBytes: Buffer.byteLength(body), measure: (run) => measure(run), stop };
}

/**
 * The ceiling as a result line: no target, it is what the read figures are divided by. It is
 * measured right before and right after W3 and the mean of the two is the ceiling, so that W3's
 * ratio compares runs made under about the same load from other work; `drift` is the check after
 * all the reads.
 */
export function ceilingResult(ctx: BenchContext, runs: LoadOutcome[], bodyBytes: number, drift = false): WorkloadResult {
  const perSecond = runs.reduce((sum, run) => sum + run.perSecond, 0) / runs.length;
  const each = runs.map((run) => Math.round(run.perSecond).toLocaleString('en-US')).join(' and ');
  const metrics = [
    { label: '', value: perSecond, unit: 'req/s' },
    ...(drift && ctx.ceilingPerSecond ? [{ label: '=', value: (perSecond / ctx.ceilingPerSecond) * 100, unit: '% of the ceiling used' }] : []),
    { label: 'p50', value: Math.max(...runs.map((run) => run.latency.p50)), unit: 'ms' },
    { label: 'p99', value: Math.max(...runs.map((run) => run.latency.p99)), unit: 'ms' },
  ];
  const cpu = { serverSeconds: runs.reduce((sum, run) => sum + run.cpu.serverSeconds, 0), benchSeconds: runs.reduce((sum, run) => sum + run.cpu.benchSeconds, 0) };
  return {
    id: drift ? 'C2' : 'C',
    title: drift
      ? `ceiling measured again after the reads (${W3_CONNECTIONS} conns, ${ctx.settings.seconds} s)`
      : `ceiling: bare Fastify route answering one record (${bodyBytes} bytes) as a constant, own process (${W3_CONNECTIONS} conns, 2 x ${ctx.settings.seconds} s)`,
    metrics,
    failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    cost: cpuCost(cpu, runs.reduce((sum, run) => sum + run.ok + run.non2xx, 0), 'request'),
    note: drift ? 'a check of how the machine drifted: the ratios use the ceiling measured around W3' : `measured right before and right after W3: ${each} req/s; the read figures are divided by their mean (p50 and p99: the larger)`,
    details: { perSecond, runs, bodyBytes },
  };
}
