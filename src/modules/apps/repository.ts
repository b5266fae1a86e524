import type { Executor } from '../../db/connection.js';

export async function findApp(db: Executor, appId: string) {
  return db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
}

export async function insertApp(db: Executor, row: { id: string; organization_id: string; name: string; description: string; icon: string; color: string; owner_id: string; created_at: number; updated_at: number }) {
  await db.insertInto('apps').values(row).execute();
}

export async function updateApp(db: Executor, appId: string, changes: { name?: string; description?: string; icon?: string; color?: string; updated_at: number }) {
  await db.updateTable('apps').set(changes).where('id', '=', appId).execute();
}

/** Removes the app and what hangs off it by reference (keys, sections, items, pages). */
export async function deleteApp(db: Executor, appId: string) {
  for (const table of ['app_keys', 'items', 'sections', 'custom_pages', 'share_links', 'option_sets'] as const) {
    await db.deleteFrom(table).where('app_id', '=', appId).execute();
  }
  await db.deleteFrom('apps').where('id', '=', appId).execute();
}

export async function insertCustomPage(db: Executor, row: { id: string; app_id: string; name: string; components: string; version: number; created_at: number }) {
  await db.insertInto('custom_pages').values(row).execute();
}

/** The organization an application belongs to; undefined when the application is gone. */
export async function organizationOf(db: Executor, appId: string): Promise<string | undefined> {
  return (await db.selectFrom('apps').select('organization_id').where('id', '=', appId).executeTakeFirst())?.organization_id;
}

export async function firstAppOf(db: Executor, organizationId: string) {
  return db.selectFrom('apps').select(['id']).where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').executeTakeFirst();
}

/** The applications of an organization, by name. */
export async function appsOfOrganization(db: Executor, organizationId: string) {
  return db.selectFrom('apps').select(['id', 'organization_id', 'name', 'description', 'icon', 'color', 'owner_id']).where('organization_id', '=', organizationId).orderBy('name').orderBy('id').execute();
}
