import { loadTarget, rowsPath, type BenchContext, type RecordPage } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';

const CONNECTIONS = 16;
const PAGE_SIZE = 50;
const PAGES = 200;

/** Checks one page really is sorted by price, descending: a fast wrong answer must not pass. */
function assertSortedDescending(page: RecordPage, priceField: string): void {
  const prices = page.rows.map((row) => Number(row.fields.find((f) => f.id === priceField)?.value));
  if (page.rows.length !== PAGE_SIZE || prices.some((price, i) => i > 0 && price > prices[i - 1])) {
    throw new Error(`W4: the sorted list returned ${page.rows.length} rows, not ${PAGE_SIZE} in descending price order`);
  }
}

/** W4: pages of 50 of the full table, sorted by a number field, descending; pages 1..200 in rotation. */
export async function listSorted(ctx: BenchContext): Promise<WorkloadResult> {
  const price = ctx.sheet.field.price;
  const request = (pageIndex: number) => ({ pageSize: PAGE_SIZE, pageIndex, sorts: [{ field: price, isAsc: false }] });
  // The first sort on a field creates its index: done once here, outside the measurement.
  const warmStarted = performance.now();
  assertSortedDescending(await ctx.api.call<RecordPage>('POST', `${rowsPath(ctx)}/list`, request(1)), price);
  const warmUpMs = performance.now() - warmStarted;
  assertSortedDescending(await ctx.api.call<RecordPage>('POST', `${rowsPath(ctx)}/list`, request(PAGES)), price);
  const bodies = Array.from({ length: PAGES }, (_, i) => JSON.stringify(request(i + 1)));
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path: `${rowsPath(ctx)}/list`, body: bodies[i % PAGES] }),
  });
  return {
    id: 'W4',
    title: `list sorted by number, page of ${PAGE_SIZE}, pages 1-${PAGES} (${CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics: [
      { label: '', value: outcome.perSecond, unit: 'req/s', bound: '>=', target: 2_000 },
      { label: 'p99', value: outcome.latency.p99, unit: 'ms', bound: '<=', target: 30 },
    ],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome, warmUpMs: Math.round(warmUpMs) },
  };
}
