import type { WorksheetSchema } from '../worksheets/index.js';

/** Filtered totals kept per worksheet schema; the least recently used goes first. */
const PER_WORKSHEET = 64;

interface KeptTotal {
  version: number;
  total: number;
}

/**
 * Totals of filtered lists, kept while the worksheet's records are unchanged. A client paging
 * through a filtered view asks the same total with every page; counting it means reading every
 * matching index entry (or row), so the count is made once per version of the records
 * (`rowCountSums`: any committed write, in any process, raises it) and per statement: the key is
 * the count's SQL text and parameters, so a filter resolved differently (another day for `today`,
 * another caller for `user-self`) is another key. Entries hang off the loaded schema object, so a
 * structure change (a new schema) starts afresh.
 * @example const total = await filteredTotal(schema, key, version, () => countRows(…));
 */
const kept = new WeakMap<WorksheetSchema, Map<string, KeptTotal>>();

export async function filteredTotal(schema: WorksheetSchema, key: string, version: number, count: () => Promise<number>): Promise<number> {
  let totals = kept.get(schema);
  if (!totals) kept.set(schema, (totals = new Map()));
  const hit = totals.get(key);
  if (hit && hit.version === version) {
    totals.delete(key);
    totals.set(key, hit);
    return hit.total;
  }
  const total = await count();
  totals.set(key, { version, total });
  if (totals.size > PER_WORKSHEET) totals.delete(totals.keys().next().value!);
  return total;
}
