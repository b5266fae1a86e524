import type { Kysely } from 'kysely';

/**
 * Discussions of records (`discussions`): one row per message posted on a record, newest read
 * first through the (worksheet_id, row_id, created_at) index. `mentions` is a JSON array of account
 * ids; `reply_to_author` keeps the author of the discussion replied to, so that a reply still shows
 * whom it answered after that discussion is deleted. A discussion's files are rows of `files` whose
 * `field_id` is `discussion:<id>` (counted in the application's quota like every file);
 * `attachments` lists their ids in the order they were given (`[]` when none).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('discussions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('reply_to_id', 'text')
    .addColumn('reply_to_author', 'text')
    .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attachments', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('discussions_row').on('discussions').columns(['worksheet_id', 'row_id', 'created_at']).execute();
}
