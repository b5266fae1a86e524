import type { Executor } from '../db/connection.js';
import { changeEpoch, noteChange } from '../shared/change-notices.js';

const TTL_MS = 5_000;
const cache = new Map<string, { at: number; epoch: number; indexed: boolean }>();

/**
 * Whether any knowledge base indexes a worksheet, read once per worksheet and kept for 5 seconds
 * (as the workflow trigger cache is), so that a write to a worksheet no base indexes costs no query.
 * Adding or removing sources forgets the worksheet in this process when that commits, and in the
 * server's other processes through a change notice; processes that share only a PostgreSQL
 * database see the change within 5 seconds.
 */
export async function worksheetIsIndexed(db: Executor, worksheetId: string): Promise<boolean> {
  // Real time, not the service clock: this ages a cache, it dates no data.
  const now = Date.now();
  const cached = cache.get(worksheetId);
  if (cached && now - cached.at <= TTL_MS && cached.epoch === changeEpoch()) return cached.indexed;
  const readSince = changeEpoch();
  const row = await db.selectFrom('knowledge_sources').select('id').where('worksheet_id', '=', worksheetId).limit(1).executeTakeFirst();
  cache.set(worksheetId, { at: now, epoch: readSince, indexed: row !== undefined });
  return row !== undefined;
}

/** Forgets whether these worksheets are indexed (after their sources changed). */
export function forgetIndexedWorksheets(worksheetIds: Iterable<string>): void {
  for (const id of worksheetIds) cache.delete(id);
  noteChange();
}
