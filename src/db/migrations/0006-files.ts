import type { Kysely } from 'kysely';

/**
 * Files attached to records (`files`: one row per file of a record's attachment field; the bytes
 * live in the file store under `storage_key`, which several rows may share when one upload went to
 * several records) and secrets the server keeps across restarts and processes (`server_secrets`: the
 * key that signs download links).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_app').on('files').columns(['app_id']).execute();
  await db.schema.createIndex('files_row').on('files').columns(['row_id']).execute();
  await db.schema.createIndex('files_storage').on('files').columns(['storage_key']).execute();
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
