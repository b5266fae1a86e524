import type { BenchContext } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { createBenchSheet, recordFields } from '../worksheet.js';

const ENTRIES = 1_000;
const PAGE = 50;
const CONNECTIONS = 1;

interface LogPage {
  logs: unknown[];
  total: number;
}

/**
 * W12: the log of a record with 1,000 entries (one create, 999 edits of two fields), read a page of
 * 50 at a time, newest first, with its total; pages rotate over the first ten.
 */
export async function recordLogPages(ctx: BenchContext): Promise<WorkloadResult> {
  const sheet = await createBenchSheet(ctx.api, 'Bench W12');
  const rows = `/v3/app/worksheets/${sheet.id}/rows`;
  const { id } = await ctx.api.call<{ id: string }>('POST', rows, { fields: recordFields(sheet, 1) });
  for (let i = 1; i < ENTRIES; i++) {
    await ctx.api.call('PATCH', `${rows}/${id}`, { fields: [{ id: sheet.field.quantity, value: i }, { id: sheet.field.notes, value: `edit ${i}` }] });
  }
  const first = await ctx.api.call<LogPage>('GET', `${rows}/${id}/logs?pageSize=${PAGE}`);
  if (first.total !== ENTRIES || first.logs.length !== PAGE) throw new Error(`W12: the log holds ${first.total} entries (page of ${first.logs.length}), expected ${ENTRIES}`);
  const outcome = await runLoad({
    baseUrl: ctx.server.baseUrl,
    headers: ctx.headers,
    serverCpuSeconds: () => ctx.server.cpuSeconds(),
    serverQueries: () => ctx.server.queryCount(),
    method: 'GET',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path: `${rows}/${id}/logs?pageSize=${PAGE}&pageIndex=${(i % 10) + 1}` }),
  });
  return {
    id: 'W12',
    title: `record log, ${ENTRIES} entries, page of ${PAGE} with total (${CONNECTIONS} conn, ${ctx.settings.seconds} s)`,
    metrics: [
      { label: '', value: outcome.perSecond, unit: 'req/s' },
      { label: 'p50', value: outcome.latency.p50, unit: 'ms', bound: '<=', target: 10 },
      { label: 'p99', value: outcome.latency.p99, unit: 'ms' },
    ],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome },
  };
}

/**
 * The record log's cost on writes: W1 and W2 (log on) against W1n and W2n (the same writes to
 * worksheets whose log is off), as percent fewer records per second; the target is at most 15 %.
 */
export function recordLogCost(results: WorkloadResult[]): WorkloadResult | null {
  const rate = (id: string) => results.find((r) => r.id === id)?.metrics[0]?.value;
  const metrics = [];
  for (const [on, off] of [['W1', 'W1n'], ['W2', 'W2n']] as const) {
    const withLog = rate(on);
    const without = rate(off);
    if (withLog === undefined || without === undefined || without === 0) continue;
    metrics.push({ label: `${on} vs ${off}`, value: ((without - withLog) / without) * 100, unit: '% slower', bound: '<=' as const, target: 15 });
  }
  if (metrics.length === 0) return null;
  return { id: 'Wlog', title: 'record log cost on writes (log on vs off)', metrics, failures: 0, details: {} };
}
