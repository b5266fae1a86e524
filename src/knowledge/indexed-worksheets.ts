import type { Executor } from '../db/connection.js';
import { changeEpoch } from '../shared/change-notices.js';
import { SchemaCache } from '../shared/schema-cache.js';

const cache = new SchemaCache<boolean>();

/**
 * Whether any knowledge base indexes a worksheet, read once per worksheet and kept for 5 seconds
 * (as the workflow trigger cache is), so that a write to a worksheet no base indexes costs no query.
 * Adding or removing sources forgets the worksheet in this process when that commits, and in the
 * server's other processes through a change notice; processes that share only a PostgreSQL
 * database see the change within 5 seconds.
 */
export async function worksheetIsIndexed(db: Executor, worksheetId: string): Promise<boolean> {
  const cached = cache.get(worksheetId);
  if (cached !== undefined) return cached;
  const readSince = changeEpoch();
  const row = await db.selectFrom('knowledge_sources').select('id').where('worksheet_id', '=', worksheetId).limit(1).executeTakeFirst();
  cache.set(worksheetId, row !== undefined, readSince);
  return row !== undefined;
}

/** Forgets whether these worksheets are indexed (after their sources changed). */
export function forgetIndexedWorksheets(worksheetIds: Iterable<string>): void {
  for (const id of worksheetIds) cache.delete(id);
}
