import { listPath, loadTarget, readMetrics, type BenchContext, type RecordPage } from '../context.js';
import { waitForIndexes } from '../indexes.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { checkPricePage } from '../truth.js';

const CONNECTIONS = 16;
const PAGE_SIZE = 50;
const PAGES = 200;

/** W4s: the foundation's W4, pages of 50 of the full table sorted by price, descending; pages 1..200 in rotation. */
export async function listSorted(ctx: BenchContext): Promise<WorkloadResult> {
  const price = ctx.sheet.field.price;
  const request = (pageIndex: number) => ({ pageSize: PAGE_SIZE, pageIndex, sorts: [{ field: price, isAsc: false }] });
  const page = (pageIndex: number) => ctx.api.call<RecordPage>('POST', listPath(ctx), request(pageIndex));
  // The first sort on a field asks for its index, built in the background: waited for here, outside the measurement.
  const warmStarted = performance.now();
  await page(1);
  const warmUpMs = performance.now() - warmStarted;
  const index = await waitForIndexes(ctx, [[price]], () => page(1));
  // A fast wrong answer must not pass: the warm-up pages must hold exactly the prices expected there.
  for (const pageIndex of [1, 2, PAGES / 2, PAGES]) {
    const wrong = checkPricePage(await page(pageIndex), price, ctx.truth!.allPricesDesc, pageIndex, PAGE_SIZE);
    if (wrong) throw new Error(`W4s: the sorted list is wrong: ${wrong}`);
  }
  const bodies = Array.from({ length: PAGES }, (_, i) => JSON.stringify(request(i + 1)));
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path: listPath(ctx), body: bodies[i % PAGES] }),
  });
  return {
    id: 'W4s',
    title: `list sorted by price desc, no filter, page of ${PAGE_SIZE}, pages 1-${PAGES} (${CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics: readMetrics(ctx, outcome, ctx.engine === 'SQLite' ? { perSecond: 1_500 } : {}),
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    note: `read indexes: ${index.how} (${(index.ms / 1000).toFixed(1)} s)`,
    details: { ...outcome, warmUpMs: Math.round(warmUpMs), indexWait: index },
  };
}
