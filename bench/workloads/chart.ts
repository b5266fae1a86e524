import { loadTarget, readMetrics, type BenchContext } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';

const CONNECTIONS = 1;

interface ChartData {
  points: Array<{ x: unknown; values: Array<number | null> }>;
}

/**
 * W13: a bar chart of the bench worksheet (by status, SUM of price), its data and its SVG, one
 * connection each; the data is checked against what the table holds first.
 */
export async function chartDataAndSvg(ctx: BenchContext): Promise<WorkloadResult[]> {
  const { status, price } = ctx.sheet.field;
  const { id } = await ctx.api.call<{ id: string }>('POST', `/v3/app/worksheets/${ctx.sheet.id}/charts`, { name: 'Price by status', reportType: 1, xaxes: { controlId: status }, yaxisList: [{ controlId: price, normType: 1 }] });
  const data = await ctx.api.call<ChartData>('GET', `/v3/app/charts/${id}/data`);
  const expected = ctx.truth!.byStatus.filter((s) => s.count > 0).length;
  if (data.points.length !== expected) throw new Error(`W13: the chart shows ${data.points.length} groups, expected ${expected}`);
  const results: WorkloadResult[] = [];
  for (const [suffix, path, p50, title] of [
    ['', `/v3/app/charts/${id}/data`, 60, 'chart data'],
    ['s', `/v3/app/charts/${id}/image.svg`, 100, 'chart SVG'],
  ] as const) {
    const outcome = await runLoad({ ...loadTarget(ctx), method: 'GET', connections: CONNECTIONS, seconds: ctx.settings.seconds, request: () => ({ path }) });
    results.push({
      id: `W13${suffix}`,
      title: `${title}: bar by status, SUM(price) (${(ctx.truth!.records / 1000).toFixed(0)}k records; ${CONNECTIONS} conn, ${ctx.settings.seconds} s)`,
      metrics: readMetrics(ctx, outcome, { p50 }),
      failures: outcome.non2xx + outcome.errors,
      cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
      details: { ...outcome },
    });
  }
  return results;
}
