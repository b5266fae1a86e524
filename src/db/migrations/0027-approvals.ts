import type { Kysely } from 'kysely';

/**
 * To-dos of workflow runs and in-app notifications.
 *
 * `workflow_work_items`: one row per assignee per waiting step (`run_id` is the public instance id,
 * `id` its `workId`): `kind` 4 approve, 3 fill in, 5 copy (cc), 0 the initiator's resubmit after a
 * return; `status` as facts §7.6 numbers it (0 pending or unread; 1 passed, filled, read or
 * resubmitted; 4 rejected or returned; 5 no longer needed); `seq` the run's waiting step. The
 * workflow's and the record's names are copied in for the lists and their keyword search.
 * `workflow_urges`: when each instance was last urged (at most once an hour).
 * `notifications`: per account, unread while `read_at` is null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workflow_work_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('node_alias', 'text', (c) => c.notNull())
    .addColumn('node_name', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('mode', 'text')
    .addColumn('assignee_id', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('opinion', 'text')
    .addColumn('filled', 'text')
    .addColumn('note', 'text')
    .addColumn('acted_by', 'text')
    .addColumn('acted_at', 'bigint')
    .addColumn('due_at', 'bigint')
    .addColumn('process_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text')
    .addColumn('row_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_work_items_assignee').on('workflow_work_items').columns(['assignee_id', 'kind', 'status', 'created_at']).execute();
  await db.schema.createIndex('workflow_work_items_app').on('workflow_work_items').columns(['app_id', 'kind', 'status', 'created_at']).execute();
  await db.schema.createIndex('workflow_work_items_step').on('workflow_work_items').columns(['run_id', 'seq']).execute();
  await db.schema.createIndex('workflow_runs_initiator').on('workflow_runs').columns(['initiator_id', 'started_at']).execute();

  await db.schema
    .createTable('workflow_urges')
    .addColumn('run_id', 'text', (c) => c.primaryKey())
    .addColumn('urged_at', 'bigint', (c) => c.notNull())
    .addColumn('urged_by', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_account').on('notifications').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['account_id', 'read_at']).execute();
}
