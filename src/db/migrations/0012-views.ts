import type { Kysely } from 'kysely';

/**
 * Views of worksheets (`views`): a named way to show a worksheet's records (table, kanban, calendar…).
 * `type` is the wire number (0 table, 1 kanban, …); `definition` is JSON holding the view's settings
 * (config, filter, sort, visible fields, card…) with every field reference stored as a field id, so
 * that renaming a field or its alias never breaks a view. `position` orders the views of a worksheet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('views_worksheet').on('views').columns(['worksheet_id', 'position']).execute();
}
