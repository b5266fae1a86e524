import type { Executor } from '../../db/connection.js';

export async function findPage(db: Executor, appId: string, id: string) {
  return db.selectFrom('custom_pages').selectAll().where('id', '=', id).where('app_id', '=', appId).executeTakeFirst();
}

/** Saves a layout if the page is still at `version`; whether it was. */
export async function savePage(db: Executor, appId: string, id: string, version: number, components: string): Promise<boolean> {
  const saved = await db.updateTable('custom_pages').set({ components, version: version + 1 }).where('id', '=', id).where('app_id', '=', appId).where('version', '=', version).executeTakeFirst();
  return Number(saved.numUpdatedRows) > 0;
}

/** Which of these ids are charts / worksheets of the application. */
export async function existingIds(db: Executor, table: 'charts' | 'worksheets', appId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('id').where('app_id', '=', appId).where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** Which of these views are views of these worksheets (`"<worksheet>/<view>"` keys). */
export async function existingViews(db: Executor, worksheetIds: string[], viewIds: string[]): Promise<Set<string>> {
  if (viewIds.length === 0) return new Set();
  const rows = await db.selectFrom('views').select(['id', 'worksheet_id']).where('id', 'in', viewIds).where('worksheet_id', 'in', worksheetIds).execute();
  return new Set(rows.map((row) => `${row.worksheet_id}/${row.id}`));
}
