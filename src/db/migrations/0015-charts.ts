import type { Kysely } from 'kysely';

/** Charts of worksheets (`modules/charts`): the spec as given (field references as ids), computed when read. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('charts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('report_type', 'integer', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('charts_worksheet').on('charts').columns(['worksheet_id']).execute();
  await db.schema.createIndex('charts_app').on('charts').columns(['app_id']).execute();
}
