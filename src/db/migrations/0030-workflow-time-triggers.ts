import type { Kysely } from 'kysely';

/**
 * Time triggers (schedules and date fields) and what keeps their runs single.
 *
 * `workflow_runs.trigger_key` names the firing a run answers (`schedule:<epoch ms>`,
 * `date:<rowId>:<epoch ms>`), unique per workflow: a firing repeated after a crash, or by a second
 * process, finds its run there and makes none. Runs triggered by record writes and hook calls have
 * none (NULLs never collide).
 *
 * `workflow_time_triggers` holds one row per published workflow with a time trigger: `job_id` is the
 * job that carries it now (a schedule's next firing, a date field's next sweep); a job that is not
 * the row's job was replaced (the workflow was published again or closed) and ends without firing.
 * `swept_until` is a date-field trigger's watermark: record times up to it were swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workflow_runs').addColumn('trigger_key', 'text').execute();
  await db.schema.createIndex('workflow_runs_trigger_key').on('workflow_runs').columns(['workflow_id', 'trigger_key']).unique().execute();
  await db.schema
    .createTable('workflow_time_triggers')
    .addColumn('workflow_id', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('swept_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
