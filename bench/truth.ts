import { listPath, valueOf, type BenchContext, type RecordPage } from './context.js';
import { recordFacts, type RecordFacts } from './worksheet.js';

/**
 * What the table holds, worked out from the deterministic record generator: W1 wrote records
 * 1..records (W2 writes to a worksheet of its own); any other record found is read back by its
 * `sequence` and counted in. The read workloads check their warm-up answers against this, so a fast
 * wrong answer fails.
 */
export interface Truth {
  records: number;
  /** Prices (cents) of every record, highest first: the order of W4s. */
  allPricesDesc: Int32Array;
  /** Prices (cents) of the records W4's filter selects, highest first. */
  filteredPricesDesc: Int32Array;
  /** Count and sum of prices (cents) by status index: W5's answer. */
  byStatus: Array<{ count: number; sumCents: number }>;
  /** Records holding W11's search word. */
  searchMatches: number;
}

/** W4's filter, `quantity > 5000 AND status in [the first option]`, as the bench checks it. */
export const W4_QUANTITY_ABOVE = 5_000;
export const matchesW4Filter = (facts: RecordFacts): boolean => facts.quantity > W4_QUANTITY_ABOVE && facts.status === 0;

const descending = (values: number[]): Int32Array => Int32Array.from(values).sort().reverse();

/** The numbers of records beyond W1's (none unless a workload writes to the read table), by their `sequence`. */
async function addedRecordNumbers(ctx: BenchContext): Promise<number[]> {
  const sequence = ctx.sheet.field.sequence;
  // notbetween rather than gt: a range condition would ask for a read index on sequence, built in
  // the background while the reads are measured.
  const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: sequence, operator: 'notbetween', value: [1, ctx.settings.records] }] };
  const numbers: number[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const page = await ctx.api.call<RecordPage>('POST', listPath(ctx), { pageSize: 1000, pageIndex, filter, fields: [sequence], includeTotalCount: false });
    numbers.push(...page.rows.map((row) => Number(valueOf(row, sequence))));
    if (page.rows.length < 1000) return numbers;
  }
}

export async function loadTruth(ctx: BenchContext): Promise<Truth> {
  const added = await addedRecordNumbers(ctx);
  const { total } = await ctx.api.call<RecordPage>('POST', listPath(ctx), { pageSize: 1 });
  const records = ctx.settings.records + added.length;
  if (total !== records) throw new Error(`the table holds ${total} records, the bench expected ${records} (${ctx.settings.records} from W1, ${added.length} more)`);
  const all: number[] = [];
  const filtered: number[] = [];
  const byStatus = [0, 1, 2, 3].map(() => ({ count: 0, sumCents: 0 }));
  let searchMatches = 0;
  const add = (n: number): void => {
    const facts = recordFacts(n);
    all.push(facts.priceCents);
    if (matchesW4Filter(facts)) filtered.push(facts.priceCents);
    byStatus[facts.status].count += 1;
    byStatus[facts.status].sumCents += facts.priceCents;
    if (facts.hasSearchWord) searchMatches += 1;
  };
  for (let n = 1; n <= ctx.settings.records; n++) add(n);
  for (const n of added) add(n);
  return { records, allPricesDesc: descending(all), filteredPricesDesc: descending(filtered), byStatus, searchMatches };
}

/** Checks that a page of a list sorted by price, descending, holds exactly the prices expected at its place. */
export function checkPricePage(page: RecordPage, priceField: string, expectedDesc: Int32Array, pageIndex: number, pageSize: number): string | undefined {
  const from = (pageIndex - 1) * pageSize;
  const expected = expectedDesc.subarray(from, from + pageSize);
  if (page.rows.length !== expected.length) return `page ${pageIndex} has ${page.rows.length} rows, expected ${expected.length}`;
  for (let i = 0; i < expected.length; i++) {
    const cents = Math.round(Number(valueOf(page.rows[i], priceField)) * 100);
    if (cents !== expected[i]) return `page ${pageIndex} row ${i + 1}: price ${cents / 100}, expected ${expected[i] / 100} (descending)`;
  }
  return undefined;
}
