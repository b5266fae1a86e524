import type { Kysely } from 'kysely';

/**
 * Draft records (`record_drafts`): a record saved with `isDraft: true` waits here, in its creator's
 * draft box, outside the worksheet's row table, so that lists, counts, pivots and every hook of the
 * record writer never see it. `inputs` holds the field values as the requests gave them, by field
 * id (JSON), so that a submit checks them against the schema of its own time.
 *
 * `record_draft_boxes` has one row per worksheet and creator, updated by every draft creation before
 * it counts the box: the row lock serialises concurrent creations, so the cap holds on both engines.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('record_drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('inputs', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('record_drafts_box').on('record_drafts').columns(['worksheet_id', 'created_by', 'created_at']).execute();
  await db.schema
    .createTable('record_draft_boxes')
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('record_draft_boxes_pk', ['worksheet_id', 'created_by'])
    .execute();
}
