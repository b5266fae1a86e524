import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Api } from '../api.js';
import { loadTarget, type BenchContext } from '../context.js';
import { queryRows, runStatement, type BenchDatabase } from '../database.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { fullCollections } from '../gc-trace.js';
import { cpuSecondsOf, memoryOf, projectRoot } from '../server-process.js';
import { LIMITS_OFF } from './rate-limited-get.js';

/**
 * W9 and W9b: the workflow engine under load. A worksheet (title, amount, size) whose record
 * creates trigger a published two-step workflow: a branch on the amount (over 500: "big", else
 * "small") and an update of the record's size on each path. The workflow is stored straight in the
 * database, as publishing stores it (the bench drives the server as a black box otherwise).
 *
 * - W9: single-record creates over HTTP at a fixed offered rate (open loop, 16 connections) for
 *   60 s (10 s quick): the runs completed per second of the load, and trigger-to-done latency (a
 *   run's `started_at`, stamped in the transaction of the write that triggered it, to its
 *   `ended_at`).
 * - W9b: 10,000 runs (2,000 quick) queued while the server runs no workers (WORKERS=0), then a
 *   server with workers drains them: runs per second, and its resident memory, sampled through the
 *   drain (flat: the queue is read a few jobs at a time, never whole).
 *
 * Afterwards every run must have passed and every record must carry the size its amount chooses.
 */

const START = 'start_w9';
/** Offered creates per second: the target (300 runs/s) with a margin. */
const W9_RATE = 330;
const W9_CONNECTIONS = 16;

interface FlowSheet {
  id: string;
  title: string;
  amount: string;
  size: string;
  workflowId: string;
}

/** The worksheet and its workflow. */
async function createFlowSheet(api: Api, database: BenchDatabase, appId: string, name: string): Promise<FlowSheet> {
  const { worksheetId } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
    name,
    fields: [
      { name: 'Title', alias: 'title', type: 'Text', isTitle: true },
      { name: 'Amount', alias: 'amount', type: 'Number' },
      { name: 'Size', alias: 'size', type: 'Text' },
    ],
  });
  const schema = await api.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${worksheetId}`);
  const field = Object.fromEntries(schema.fields.map((f) => [f.alias, f.id]));
  const workflowId = randomUUID();
  const record = { kind: 'record', node: START };
  const setSize = (alias: string, size: string, parent: string) => ({
    id: randomUUID(),
    alias,
    type: 'update_record',
    name: alias,
    description: '',
    prev: null,
    parent,
    config: { worksheetId, record, fields: [{ fieldId: field.size, value: { kind: 'literal', value: size } }] },
  });
  const trigger = { type: 1, alias: START, worksheetId, config: { worksheetId, event: 'create' } };
  const branch = {
    id: randomUUID(),
    alias: 'by_amount',
    type: 'branch',
    name: 'by amount',
    description: '',
    prev: START,
    parent: null,
    config: { paths: [{ alias: 'big', condition: { logic: 'and', conditions: [{ left: { kind: 'field', node: START, fieldId: field.amount }, op: 'gt', right: { kind: 'literal', value: 500 } }] } }, { alias: 'small' }] },
  };
  const definition = { workflowId, appId, name, version: 1, trigger, nodes: [branch, setSize('mark_big', 'big', 'big'), setSize('mark_small', 'small', 'small')] };
  const now = Date.now();
  await runStatement(
    database,
    `INSERT INTO workflows (id, app_id, name, description, trigger_type, trigger_alias, trigger_config, trigger_worksheet_id, status, published_version, draft_version, owner_id, created_at, updated_at)
     VALUES ($1, $2, $3, '', 1, $4, $5, $6, 'published', 1, 1, 'user-api', $7, $8)`,
    [workflowId, appId, name, START, JSON.stringify(trigger.config), worksheetId, now, now],
  );
  await runStatement(database, `INSERT INTO workflow_versions (workflow_id, version, definition, published_at, published_by) VALUES ($1, 1, $2, $3, 'user-api')`, [workflowId, JSON.stringify(definition), now]);
  return { id: worksheetId, title: field.title, amount: field.amount, size: field.size, workflowId };
}

const recordBody = (sheet: FlowSheet, i: number) => ({ fields: [{ id: sheet.title, value: `r${i}` }, { id: sheet.amount, value: (i * 37) % 1000 }] });

interface RunTimes {
  started_at: number;
  ended_at: number | null;
  status: string;
  error: string | null;
}

async function runsOf(database: BenchDatabase, sheet: FlowSheet): Promise<RunTimes[]> {
  const rows = await queryRows<RunTimes>(database, 'SELECT started_at, ended_at, status, error FROM workflow_runs WHERE workflow_id = $1', [sheet.workflowId]);
  return rows.map((r) => ({ ...r, started_at: Number(r.started_at), ended_at: r.ended_at === null ? null : Number(r.ended_at) }));
}

/** Waits until every run of the workflow has ended (polling the database the server writes); the wait in ms. */
async function drained(database: BenchDatabase, sheet: FlowSheet, onSample?: () => Promise<void>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const [open] = await queryRows<{ n: number | string }>(database, 'SELECT COUNT(*) AS n FROM workflow_runs WHERE workflow_id = $1 AND ended_at IS NULL', [sheet.workflowId]);
    await onSample?.();
    if (Number(open.n) === 0) return performance.now() - started;
    if (performance.now() - started > 600_000) throw new Error(`${open.n} runs of ${sheet.workflowId} still open after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every run passed and every record got the size its amount chooses: wrong answers, each one a failure. */
async function wrongAnswers(database: BenchDatabase, sheet: FlowSheet, runs: RunTimes[]): Promise<string[]> {
  const problems: string[] = [];
  const unpassed = runs.filter((r) => r.status !== 'passed');
  if (unpassed.length > 0) problems.push(`${unpassed.length} runs did not pass (${[...new Set(unpassed.map((r) => `${r.status}: ${r.error}`))].slice(0, 3).join('; ')})`);
  const [sized] = await queryRows<{ records: number | string; wrong: number | string }>(
    database,
    `SELECT COUNT(*) AS records, SUM(CASE WHEN "${sheet.size}" = (CASE WHEN "${sheet.amount}" > 500 THEN 'big' ELSE 'small' END) THEN 0 ELSE 1 END) AS wrong FROM "ws_${sheet.id}"`,
    [],
  );
  if (Number(sized.records) !== runs.length) problems.push(`${sized.records} records but ${runs.length} runs`);
  if (Number(sized.wrong) > 0) problems.push(`${sized.wrong} records without the size their amount chooses`);
  return problems;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** W9: creates at a fixed rate, each running the workflow; completed runs per second and trigger-to-done latency. */
export async function workflowRuns(ctx: BenchContext, database: BenchDatabase, appId: string): Promise<WorkloadResult> {
  const seconds = ctx.settings.quick ? 10 : 60;
  const sheet = await createFlowSheet(ctx.api, database, appId, 'Bench W9');
  // A warm-up write: the trigger cache and the workflow's version are loaded before the clock starts.
  await ctx.api.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, recordBody(sheet, 0));
  await drained(database, sheet);
  const path = `/v3/app/worksheets/${sheet.id}/rows`;
  const bodies = Array.from({ length: 1000 }, (_, i) => JSON.stringify(recordBody(sheet, i + 1)));
  const windowStart = Date.now();
  const load = await runLoad({ ...loadTarget(ctx), method: 'POST', connections: W9_CONNECTIONS, seconds, overallRate: W9_RATE, request: (i) => ({ path, body: bodies[i % bodies.length] }) });
  const windowEnd = Date.now();
  const cpuBefore = await ctx.server.cpuSeconds();
  const drainMs = await drained(database, sheet);
  const drainCpu = (await ctx.server.cpuSeconds()) - cpuBefore;
  const runs = (await runsOf(database, sheet)).filter((r) => r.started_at >= windowStart);
  const inWindow = runs.filter((r) => r.ended_at !== null && r.ended_at <= windowEnd).length;
  const latencies = runs.map((r) => r.ended_at! - r.started_at).sort((a, b) => a - b);
  const problems = await wrongAnswers(database, sheet, await runsOf(database, sheet));
  const sqlite = ctx.engine === 'SQLite';
  return {
    id: 'W9',
    title: `record creates triggering a two-step workflow (branch, update record), ${W9_RATE} creates/s offered, ${W9_CONNECTIONS} conns, ${seconds} s`,
    // The targets are SQLite's; on PostgreSQL the figures are shown for information.
    metrics: [
      { label: '', value: inWindow / ((windowEnd - windowStart) / 1000), unit: 'runs/s completed', ...(sqlite ? { bound: '>=' as const, target: 300 } : {}) },
      { label: 'trigger-to-done p50', value: percentile(latencies, 50), unit: 'ms' },
      { label: 'p99', value: percentile(latencies, 99), unit: 'ms', ...(sqlite ? { bound: '<=' as const, target: 500 } : {}) },
      { label: 'creates', value: load.perSecond, unit: '/s' },
      { label: 'create p99', value: load.latency.p99, unit: 'ms' },
    ],
    failures: load.non2xx + load.errors + problems.length,
    cost: cpuCost({ serverSeconds: load.cpu.serverSeconds + drainCpu, benchSeconds: load.cpu.benchSeconds }, runs.length, 'record'),
    details: { creates: load.ok, createsPerSecond: Math.round(load.perSecond), runs: runs.length, completedInWindow: inWindow, drainAfterLoadMs: Math.round(drainMs), latencyMaxMs: latencies.at(-1), problems },
    ...(problems.length > 0 ? { note: `wrong answers: ${problems.join('; ')}` } : {}),
  };
}

/**
 * Starts `tabularium worker` on the bench database: the process W9b watches drain the backlog.
 * `--trace-gc` prints every collection to its log (a line each, a cost too small to see in runs/s),
 * from which W9b reads the heap it keeps.
 */
function spawnWorker(database: BenchDatabase, logFile: string): ChildProcess {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--trace-gc', 'bin/tabularium.js', 'worker'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn', NODE_ENV: 'production', WORKERS: '4' },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  return child;
}

/**
 * W9b: a backlog of queued runs, made while no process runs workers (the server restarted with
 * WORKERS=0), drained by a `tabularium worker` process started afterwards: runs per second, and
 * that process's resident memory sampled every 100 ms from its start to the end of the drain.
 */
export async function backlogDrain(ctx: BenchContext, database: BenchDatabase, appId: string, restart: (env: Record<string, string>) => Promise<void>): Promise<WorkloadResult> {
  const total = ctx.settings.quick ? 2_000 : 10_000;
  await restart({ ...LIMITS_OFF, WORKERS: '0' });
  try {
    const sheet = await createFlowSheet(ctx.api, database, appId, 'Bench W9b');
    for (let first = 0; first < total; first += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - first) }, (_, i) => recordBody(sheet, first + i));
      await ctx.api.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows });
    }
    const queued = (await runsOf(database, sheet)).filter((r) => r.ended_at === null).length;
    const spawned = Date.now();
    const workerLog = join(projectRoot, '.bench', 'worker.log');
    const worker = spawnWorker(database, workerLog);
    const rss: number[] = [];
    const sampler = setInterval(() => void memoryOf(worker.pid!).then((m) => rss.push(m.rssMb), () => undefined), 100);
    let cpu = 0;
    let peakRssMb = NaN;
    try {
      await drained(database, sheet, async () => {
        cpu = await cpuSecondsOf(worker.pid!);
        peakRssMb = (await memoryOf(worker.pid!)).peakRssMb;
      });
    } finally {
      clearInterval(sampler);
      worker.kill('SIGTERM');
    }
    const runs = await runsOf(database, sheet);
    const ends = runs.map((r) => r.ended_at!);
    const firstEnd = Math.min(...ends);
    const lastEnd = Math.max(...ends);
    const problems = await wrongAnswers(database, sheet, runs);
    if (queued !== total) problems.push(`${queued} runs were queued, not ${total}`);
    // Memory once the process has loaded (its first second) and its peak, from /proc; whether it
    // leaks, from the heap in use after V8's full collections once loaded (`gc-trace.ts`): RSS
    // between collections rises and falls by 100 MB and more with V8's collection schedule, so its
    // growth over a stretch of the drain (shown) says when V8 collected, not what the process keeps.
    const settled = Math.max(...rss.slice(0, 10));
    const peak = Math.max(...rss);
    const half = rss.slice(Math.floor(rss.length / 2));
    const rssGrowth = Math.max(...half) - half[0];
    const collections = fullCollections(await readFile(workerLog, 'utf8')).filter((c) => c.atMs >= 1000 && c.atMs <= lastEnd - spawned);
    const heapGrowth = collections.length >= 2 ? collections.at(-1)!.liveMb - collections[0].liveMb : NaN;
    return {
      id: 'W9b',
      title: `a backlog of ${total.toLocaleString('en-US')} queued runs (made with WORKERS=0), drained by a \`tabularium worker\` (WORKERS=4)`,
      metrics: [
        { label: '', value: (total - 1) / Math.max((lastEnd - firstEnd) / 1000, 0.001), unit: 'runs/s' },
        { label: 'first run done after', value: (firstEnd - spawned) / 1000, unit: 's (the worker\'s start)' },
        { label: 'RSS after 1 s', value: settled, unit: 'MB' },
        { label: 'peak', value: peak, unit: 'MB', bound: '<=', target: 400 },
        { label: 'heap kept, growth from the first full collection to the last', value: heapGrowth, unit: 'MB', bound: '<=', target: 32 },
        { label: 'RSS rise over the second half', value: rssGrowth, unit: 'MB' },
      ],
      failures: problems.length,
      cost: cpuCost({ serverSeconds: cpu, benchSeconds: 0 }, total, 'record'),
      details: {
        queued,
        drainMs: lastEnd - spawned,
        startupMs: firstEnd - spawned,
        samples: rss.length,
        peakRssMbFromProc: peakRssMb,
        rssEverySecondMb: rss.filter((_, i) => i % 10 === 0).map((m) => Math.round(m)),
        heapKeptAfterFullCollectionsMb: collections.map((c) => `${c.atMs} ms: ${c.liveMb}`),
        problems,
      },
      ...(collections.length < 2 ? { note: `only ${collections.length} full collection(s) during the drain after the first second: the heap's growth cannot be judged` } : {}),
      ...(problems.length > 0 ? { note: `wrong answers: ${problems.join('; ')}` } : {}),
    };
  } finally {
    await restart(LIMITS_OFF);
  }
}
