import { listPath, loadTarget, readMetrics, valueOf, type BenchContext, type RecordPage } from '../context.js';
import { waitForIndexes } from '../indexes.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { SEARCH_WORD, TEXT_ALIASES } from '../worksheet.js';

const CONNECTIONS = 1;
const PAGE_SIZE = 50;

export interface SearchVariant {
  id: 'W11' | 'W11n';
  /** W11 sends the request as a client would by default (the total is counted); W11n asks for no total. */
  includeTotalCount: boolean | undefined;
}

export const W11: SearchVariant = { id: 'W11', includeTotalCount: undefined };
export const W11_NO_TOTAL: SearchVariant = { id: 'W11n', includeTotalCount: false };

/** Every row holds the word in one of its text fields; a full page; the total (when given) is the generator's. */
function checkPage(ctx: BenchContext, page: RecordPage, variant: SearchVariant): string | undefined {
  const expected = ctx.truth!.searchMatches;
  const textFields = TEXT_ALIASES.map((alias) => ctx.sheet.field[alias]);
  if (page.rows.length !== Math.min(PAGE_SIZE, expected)) return `${page.rows.length} rows, expected ${Math.min(PAGE_SIZE, expected)}`;
  const without = page.rows.find((row) => !textFields.some((field) => String(valueOf(row, field) ?? '').toLowerCase().includes(SEARCH_WORD)));
  if (without) return `record ${without.id} does not hold "${SEARCH_WORD}" in a text field`;
  if (variant.includeTotalCount !== false && page.total !== expected) return `total ${page.total}, expected ${expected}`;
  return undefined;
}

/** W11: a keyword search for one word (in about 2 % of the records) across the five text fields, first page of 50, one connection. */
export async function searchOneWord(ctx: BenchContext, variant: SearchVariant): Promise<WorkloadResult> {
  const request = { search: SEARCH_WORD, pageSize: PAGE_SIZE, ...(variant.includeTotalCount === undefined ? {} : { includeTotalCount: variant.includeTotalCount }) };
  for (let i = 0; i < 3; i++) {
    const wrong = checkPage(ctx, await ctx.api.call<RecordPage>('POST', listPath(ctx), request), variant);
    if (wrong) throw new Error(`${variant.id}: the search is wrong: ${wrong}`);
  }
  // Should the search ask for an index, it is built before the measurement.
  const index = await waitForIndexes(ctx, [], () => ctx.api.call('POST', listPath(ctx), request));
  const body = JSON.stringify(request);
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: () => ({ path: listPath(ctx), body }),
  });
  const records = `${(ctx.truth!.records / 1000).toFixed(0)}k records, ${ctx.truth!.searchMatches.toLocaleString('en-US')} match`;
  const judged = variant.id === 'W11' && ctx.engine === 'SQLite';
  return {
    id: variant.id,
    title: `search "${SEARCH_WORD}" in 5 text fields, page of ${PAGE_SIZE}, ${variant.includeTotalCount === false ? 'no total count' : 'with total count (the default)'} (${records}; ${CONNECTIONS} conn, ${ctx.settings.seconds} s)`,
    metrics: readMetrics(ctx, outcome, judged ? { p50: 30 } : {}),
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome, matching: ctx.truth!.searchMatches, indexWait: index },
  };
}
