import type { Kysely } from 'kysely';

/**
 * Workflows and the durable job queue they run on.
 *
 * `background_jobs` is the queue (`src/jobs/`): a job is claimable while `status` is queued or
 * running and `run_at` has passed; a claim sets `run_at` to the end of the claimer's lease, so one
 * index serves both "due" and "lease expired". Finished jobs are deleted (the run history lives in
 * `workflow_runs` and `workflow_steps`); a job that failed every attempt stays as `failed`.
 *
 * `workflows` holds the editable draft (its nodes in `workflow_nodes`); publishing freezes the
 * trigger and the nodes into `workflow_versions`, and runs use the version they started with.
 * `trigger_worksheet_id` is set for worksheet-event triggers, for the writer's lookup of what
 * listens to a worksheet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('background_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('background_jobs_due').on('background_jobs').columns(['status', 'run_at']).execute();

  await db.schema
    .createTable('workflows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('trigger_type', 'integer', (c) => c.notNull())
    .addColumn('trigger_alias', 'text', (c) => c.notNull())
    .addColumn('trigger_config', 'text', (c) => c.notNull())
    .addColumn('trigger_worksheet_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('published_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('draft_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflows_app').on('workflows').columns(['app_id', 'created_at']).execute();
  await db.schema.createIndex('workflows_trigger_worksheet').on('workflows').columns(['trigger_worksheet_id', 'status']).execute();

  await db.schema
    .createTable('workflow_nodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('node_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('prev_alias', 'text')
    .addColumn('parent_alias', 'text')
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflow_nodes_alias').on('workflow_nodes').columns(['workflow_id', 'alias']).unique().execute();

  await db.schema
    .createTable('workflow_versions')
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('published_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('workflow_versions_pk', ['workflow_id', 'version'])
    .execute();

  await db.schema
    .createTable('workflow_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workflow_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text')
    .addColumn('row_id', 'text')
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('initiator_id', 'text', (c) => c.notNull())
    .addColumn('chain_depth', 'integer', (c) => c.notNull())
    .addColumn('cursor', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('outputs', 'text')
    .addColumn('error', 'text')
    .addColumn('step_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('workflow_runs_workflow').on('workflow_runs').columns(['workflow_id', 'started_at']).execute();
  await db.schema.createIndex('workflow_runs_record').on('workflow_runs').columns(['worksheet_id', 'row_id']).execute();

  await db.schema
    .createTable('workflow_steps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('node_alias', 'text', (c) => c.notNull())
    .addColumn('node_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input', 'text')
    .addColumn('output', 'text')
    .addColumn('exit', 'text')
    .addColumn('error', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('workflow_steps_run').on('workflow_steps').columns(['run_id', 'seq']).unique().execute();
}
