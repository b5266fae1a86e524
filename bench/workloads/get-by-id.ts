import { loadTarget, rowsPath, type BenchContext, type RecordPage } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';

const CONNECTIONS = 32;
const SAMPLE_PAGES = 3;

/** Ids from the start, middle and end of the table, so reads are not all served from one hot corner. */
async function sampleIds(ctx: BenchContext): Promise<string[]> {
  const pages = Math.max(1, Math.floor(ctx.settings.records / 1000));
  const indexes = [...new Set([1, Math.ceil(pages / 2), pages])].slice(0, SAMPLE_PAGES);
  const ids: string[] = [];
  for (const pageIndex of indexes) {
    const page = await ctx.api.call<RecordPage>('POST', `${rowsPath(ctx)}/list`, { pageSize: 1000, pageIndex });
    ids.push(...page.rows.map((row) => row.id));
  }
  if (ids.length === 0) throw new Error('W3 needs records, and the table is empty');
  return ids;
}

/** W3: GET one record by id, rotating over a sample of ids. */
export async function getById(ctx: BenchContext): Promise<WorkloadResult> {
  const paths = (await sampleIds(ctx)).map((id) => `${rowsPath(ctx)}/${id}`);
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'GET',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path: paths[i % paths.length] }),
  });
  return {
    id: 'W3',
    title: `get record by id (${CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics: [
      { label: '', value: outcome.perSecond, unit: 'req/s', bound: '>=', target: 12_000 },
      { label: 'p99', value: outcome.latency.p99, unit: 'ms', bound: '<=', target: 15 },
    ],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome, distinctIds: paths.length },
  };
}
