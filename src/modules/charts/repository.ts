import type { Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type ChartRow = Selectable<MetaSchema['charts']>;

export async function insertChart(db: Executor, row: ChartRow): Promise<void> {
  await db.insertInto('charts').values(row).execute();
}

/** A chart of an application, or undefined. */
export async function findChart(db: Executor, appId: string, id: string): Promise<ChartRow | undefined> {
  return db.selectFrom('charts').selectAll().where('id', '=', id).where('app_id', '=', appId).executeTakeFirst();
}

export async function deleteChart(db: Executor, appId: string, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('charts').where('id', '=', id).where('app_id', '=', appId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Whether a custom page is the application's (a chart may belong to one). */
export async function pageExists(db: Executor, appId: string, pageId: string): Promise<boolean> {
  return (await db.selectFrom('custom_pages').select('id').where('id', '=', pageId).where('app_id', '=', appId).executeTakeFirst()) !== undefined;
}
