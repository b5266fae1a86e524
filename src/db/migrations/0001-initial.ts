import type { Kysely } from 'kysely';

/** Organizations, accounts, departments, applications, keys, navigation, worksheets and fields. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('fullname', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('departments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('parent_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('app_key', 'text', (c) => c.notNull().unique())
    .addColumn('sign_hash', 'text', (c) => c.notNull())
    .addColumn('read_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sections_app').on('sections').columns(['app_id', 'position']).execute();

  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('section_id', 'text')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('items_app').on('items').columns(['app_id', 'position']).execute();

  await db.schema
    .createTable('worksheets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('worksheets_app').on('worksheets').columns(['app_id', 'created_at']).execute();

  await db.schema
    .createTable('fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('worksheet_id', 'text', (c) => c.notNull().references('worksheets.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_title', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_unique', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('indexed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fields_worksheet').on('fields').columns(['worksheet_id', 'position']).execute();

  await db.schema
    .createTable('custom_pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('components', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // Live-row counts of each worksheet, spread over a few rows per worksheet ("shards") so that
  // concurrent inserts on PostgreSQL do not all queue for one row lock; the count is their sum.
  await db.schema
    .createTable('row_counts')
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('live', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('row_counts_pk', ['worksheet_id', 'shard'])
    .execute();

  await db.schema
    .createTable('auto_number_counters')
    .addColumn('field_id', 'text', (c) => c.primaryKey())
    .addColumn('last_value', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
