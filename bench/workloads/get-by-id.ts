import { ceilingResult, W3_CONNECTIONS, WARM_UP_SECONDS, type Ceiling } from '../ceiling.js';
import { loadTarget, readMetrics, rowsPath, type BenchContext, type RecordPage } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';

const SAMPLE_PAGES = 3;

/** Ids from the start, middle and end of the table, so reads are not all served from one hot corner. Also the ceiling's paths. */
export async function sampleRecordPaths(ctx: BenchContext): Promise<string[]> {
  const pages = Math.max(1, Math.floor(ctx.settings.records / 1000));
  const indexes = [...new Set([1, Math.ceil(pages / 2), pages])].slice(0, SAMPLE_PAGES);
  const ids: string[] = [];
  for (const pageIndex of indexes) {
    const page = await ctx.api.call<RecordPage>('POST', `${rowsPath(ctx)}/list`, { pageSize: 1000, pageIndex, includeTotalCount: false });
    ids.push(...page.rows.map((row) => row.id));
  }
  if (ids.length === 0) throw new Error('W3 needs records, and the table is empty');
  return ids.map((id) => `${rowsPath(ctx)}/${id}`);
}

/**
 * W3: GET one record by id, rotating over a sample of ids; on SQLite judged as a share of the
 * ceiling, which is measured right before and right after it (and returned first).
 */
export async function getById(ctx: BenchContext, ceiling: Ceiling): Promise<WorkloadResult[]> {
  const paths = ctx.recordPaths ?? (ctx.recordPaths = await sampleRecordPaths(ctx));
  const load = (seconds: number) =>
    runLoad({
      ...loadTarget(ctx),
      method: 'GET',
      connections: W3_CONNECTIONS,
      seconds,
      request: (i) => ({ path: paths[i % paths.length] }),
    });
  // Unmeasured, so that this route runs optimised code when measured, as the warmed ceiling does.
  await load(WARM_UP_SECONDS);
  const before = await ceiling.measure(ctx);
  const outcome = await load(ctx.settings.seconds);
  const after = await ceiling.measure(ctx);
  const ceilingLine = ceilingResult(ctx, [before, after], ceiling.bodyBytes);
  ctx.ceilingPerSecond = ceilingLine.metrics[0].value;
  ctx.w3PerSecond = outcome.perSecond;
  const targets = ctx.engine === 'SQLite' ? { ofCeiling: 65, p99: 15 } : { perSecond: 4_000, statements: 2 };
  return [ceilingLine, {
    id: 'W3',
    title: `get record by id (${W3_CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics: readMetrics(ctx, outcome, targets),
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome, distinctIds: paths.length },
  }];
}

/** W3t target: a token's checks are cached, so reading with one costs within 10 % of an app key. */
const W3T_OF_W3 = 90;

/**
 * W3t: W3 again, through the owner's personal access token (`Authorization: Bearer pat_…` and
 * `SVC-Appid`) instead of the app key; judged as a share of W3's figure in the same run.
 */
export async function getByIdWithToken(ctx: BenchContext): Promise<WorkloadResult> {
  const paths = ctx.recordPaths ?? (ctx.recordPaths = await sampleRecordPaths(ctx));
  const headers = await ctx.tokenHeaders();
  const load = (seconds: number) => runLoad({ ...loadTarget(ctx), headers, method: 'GET', connections: W3_CONNECTIONS, seconds, request: (i) => ({ path: paths[i % paths.length] }) });
  await load(WARM_UP_SECONDS);
  const outcome = await load(ctx.settings.seconds);
  const metrics = readMetrics(ctx, outcome, {}).filter((m) => m.unit !== '% of ceiling');
  if (ctx.w3PerSecond) metrics.splice(1, 0, { label: '=', value: (outcome.perSecond / ctx.w3PerSecond) * 100, unit: '% of W3', bound: '>=', target: W3T_OF_W3 });
  return {
    id: 'W3t',
    title: `get record by id with a personal access token (${W3_CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics,
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome, distinctIds: paths.length },
  };
}
