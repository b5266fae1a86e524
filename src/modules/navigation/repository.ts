import type { Executor } from '../../db/connection.js';

/** Sections (item groups) and items (worksheets, custom pages) of an application's navigation. */

export async function listSections(db: Executor, appId: string) {
  return db.selectFrom('sections').selectAll().where('app_id', '=', appId).orderBy('position').orderBy('id').execute();
}

export async function listItems(db: Executor, appId: string) {
  return db.selectFrom('items').selectAll().where('app_id', '=', appId).orderBy('position').orderBy('id').execute();
}

export async function findSection(db: Executor, appId: string, sectionId: string) {
  return db.selectFrom('sections').select(['id']).where('app_id', '=', appId).where('id', '=', sectionId).executeTakeFirst();
}

export async function firstSection(db: Executor, appId: string) {
  return db
    .selectFrom('sections')
    .select(['id'])
    .where('app_id', '=', appId)
    .where('parent_id', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .executeTakeFirst();
}

export async function maxPosition(db: Executor, table: 'sections' | 'items', appId: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('position').as('max'))
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

export async function minSectionPosition(db: Executor, appId: string): Promise<number> {
  const row = await db
    .selectFrom('sections')
    .select((eb) => eb.fn.min('position').as('min'))
    .where('app_id', '=', appId)
    .executeTakeFirst();
  return Number(row?.min ?? 0);
}

export async function insertSections(db: Executor, rows: Array<{ id: string; app_id: string; parent_id: string | null; name: string; position: number; created_at: number }>) {
  if (rows.length > 0) await db.insertInto('sections').values(rows).execute();
}

export async function insertItem(db: Executor, row: { id: string; app_id: string; section_id: string | null; type: number; name: string; position: number; created_at: number }) {
  await db.insertInto('items').values(row).execute();
}

export async function renameItem(db: Executor, id: string, name: string) {
  await db.updateTable('items').set({ name }).where('id', '=', id).execute();
}

export async function itemSections(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('items').select(['id', 'section_id']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, row.section_id ?? '']));
}

export async function removeItem(db: Executor, id: string) {
  await db.deleteFrom('items').where('id', '=', id).execute();
}

export async function moveItem(db: Executor, id: string, sectionId: string, position: number) {
  await db.updateTable('items').set({ section_id: sectionId, position }).where('id', '=', id).execute();
}
