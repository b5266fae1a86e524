import type { Kysely } from 'kysely';

/**
 * Option sets (`option_sets`): lists of options an application keeps once and several choice
 * fields share (a field names its set in `config.dataSource`). `options` is the JSON list as a
 * field keeps it (`[{key, value, index, isDeleted?, color?, score?}]`); the fields using a set hold
 * a copy, rewritten by every edit of the set in the edit's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('option_sets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('enable_color', 'integer', (c) => c.notNull())
    .addColumn('enable_score', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('option_sets_app').on('option_sets').columns(['app_id', 'created_at']).execute();
}
