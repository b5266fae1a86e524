import type { BenchContext } from './context.js';

const POLL_MS = 250;
/** The index list must stay unchanged this long (or twice as long as the first build took) before measuring. */
const STABLE_MS = 2_000;
/** A wanted index still missing after the list has been unchanged this long will not come: the server chose otherwise. */
const MISSING_STABLE_MS = 30_000;
/** How long to wait for the indexes a list is expected to ask for before measuring without them. */
const TIMEOUT_MS = 300_000;
const FALLBACK_WARM_UPS = 5;
const FALLBACK_PAUSE_MS = 2_000;

interface WorksheetIndexes {
  indexes?: Array<{ name?: string; fields?: string[] }>;
}

/** How the bench made sure the indexes were there before measuring. */
export interface IndexWait {
  how: string;
  ms: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Read indexes are built in the background after the first request that wants them: a workload
 * sends that request (`warmUp`), then waits here until `GET /v3/app/worksheets/{id}` lists an index
 * holding each set of fields in `wanted` (e.g. the filter's equality field and the sort field for the
 * page; the equality and range fields for the count), and until the list has stopped changing (for
 * 2 s, or twice as long as the first build took), so that an index the bench did not foresee is not
 * built while it measures. A wanted index that does not come (the list stays unchanged for 30 s) or
 * five minutes without a settled list: it measures anyway, and says so. A server whose GET
 * has no `indexes` list gets a few more warm-up requests and a pause instead.
 */
export async function waitForIndexes(ctx: BenchContext, wanted: string[][], warmUp: () => Promise<unknown>): Promise<IndexWait> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  await warmUp();
  const aliasOf = (id: string): string => Object.entries(ctx.sheet.field).find(([, f]) => f === id)?.[0] ?? id;
  const named = (fields: string[]): string => `(${fields.map(aliasOf).join(', ')})`;
  let signature: string | undefined;
  let changedAt = 0;
  let firstBuildMs: number | undefined;
  for (;;) {
    const sheet = await ctx.api.call<WorksheetIndexes>('GET', `/v3/app/worksheets/${ctx.sheet.id}`);
    if (!Array.isArray(sheet.indexes)) {
      for (let i = 0; i < FALLBACK_WARM_UPS; i++) await warmUp();
      await sleep(FALLBACK_PAUSE_MS);
      return { how: `the worksheet GET lists no indexes: ${FALLBACK_WARM_UPS + 1} warm-up requests and a ${FALLBACK_PAUSE_MS / 1000} s pause`, ms: elapsed() };
    }
    const listed = sheet.indexes.map((index) => index.fields ?? []);
    const now = JSON.stringify(listed);
    if (signature !== undefined && now !== signature) {
      changedAt = elapsed();
      firstBuildMs ??= changedAt;
    }
    signature = now;
    const missing = wanted.filter((fields) => !listed.some((index) => fields.every((field) => index.includes(field))));
    const stable = elapsed() - changedAt >= Math.max(STABLE_MS, 2 * (firstBuildMs ?? 0));
    if (missing.length === 0 && stable) {
      const found = wanted.map((fields) => named(listed.find((index) => fields.every((field) => index.includes(field)))!)).join(' ');
      return { how: `${found || 'no index wanted'} listed; the list then stayed unchanged`, ms: elapsed() };
    }
    if (missing.length > 0 && elapsed() - changedAt >= Math.max(MISSING_STABLE_MS, 10 * (firstBuildMs ?? 0))) {
      return { how: `no index on ${missing.map(named).join(' ')} (the list stayed unchanged for ${Math.round((elapsed() - changedAt) / 1000)} s): measured without it`, ms: elapsed() };
    }
    if (elapsed() > TIMEOUT_MS) {
      return { how: `after ${TIMEOUT_MS / 1000} s ${missing.length > 0 ? `no index on ${missing.map(named).join(' ')}` : 'the index list still changed'}: measured anyway`, ms: elapsed() };
    }
    await sleep(POLL_MS);
  }
}
