import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type ViewRow = Selectable<MetaSchema['views']>;

export async function insertViews(db: Executor, rows: Array<Insertable<MetaSchema['views']>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('views').values(rows).execute();
}

export async function findView(db: Executor, worksheetId: string, viewId: string): Promise<ViewRow | undefined> {
  return db.selectFrom('views').selectAll().where('id', '=', viewId).where('worksheet_id', '=', worksheetId).executeTakeFirst();
}

/** The stored definitions of views by id. */
export async function viewDefinitions(db: Executor, viewIds: string[]): Promise<Array<{ id: string; definition: string }>> {
  return db.selectFrom('views').select(['id', 'definition']).where('id', 'in', viewIds).execute();
}

/** The last position among a worksheet's views (0 when it has none). */
export async function lastPosition(db: Executor, worksheetId: string): Promise<number> {
  const row = await db.selectFrom('views').select((eb) => eb.fn.max('position').as('last')).where('worksheet_id', '=', worksheetId).executeTakeFirst();
  return Number(row?.last ?? 0);
}

export async function updateView(db: Executor, viewId: string, changes: Updateable<MetaSchema['views']>): Promise<void> {
  await db.updateTable('views').set(changes).where('id', '=', viewId).execute();
}

export async function deleteView(db: Executor, viewId: string): Promise<number> {
  const result = await db.deleteFrom('views').where('id', '=', viewId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
