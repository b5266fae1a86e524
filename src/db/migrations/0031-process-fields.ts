import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * The engine's guarantees and the records' process fields.
 *
 * Every worksheet's row table gets the process system fields (`_processName` … `_processStatus`,
 * facts §2.2), empty until a workflow run that shows its process reaches the record (new tables get
 * them from `createRowTable`). Spelled out here, not imported: a migration stays as it was released.
 *
 * `workflow_runs.revision` counts the commits that moved a run: each commit names the revision it
 * read and raises it, so that of two jobs moving one run at once (a to-do decided as its deadline
 * fires; the timeout sweep), the later one changes nothing and reads the run again.
 * `workflow_runs.timeout_at` is when a run that has not ended is aborted by the sweep (null: never),
 * set from its version's `limits.timeoutSeconds` when it starts. Two partial indexes: runs running
 * now per workflow (counted against `limits.maxConcurrentRuns` when a run starts), and runs that
 * have not ended by their timeout (what the sweep looks for).
 *
 * The job queue's claim reads due jobs in `run_at` order: `background_jobs_claimable` holds just the
 * claimable ones in that order, so a claim reads the few it takes, where the index on
 * (status, run_at) it replaces had both statuses' due jobs read and sorted, a cost that grew with
 * the backlog. The claim's WHERE names the index's condition word for word (SQLite uses a partial
 * index only then).
 */
const PROCESS_COLUMNS: Array<[string, 'text' | 'json' | 'timestamp']> = [
  ['_process_name', 'text'],
  ['_node_assignees', 'json'],
  ['_initiated_by', 'text'],
  ['_initiated_at', 'timestamp'],
  ['_node_started_at', 'timestamp'],
  ['_approval_completed_at', 'timestamp'],
  ['_due_at', 'timestamp'],
  ['_process_status', 'text'],
];

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const worksheets = await sql<{ id: string }>`SELECT id FROM worksheets`.execute(db);
  for (const { id } of worksheets.rows) {
    for (const [column, type] of PROCESS_COLUMNS) {
      await sql`ALTER TABLE ${sql.table(`ws_${id}`)} ADD COLUMN ${sql.id(column)} ${sql.raw(dialect.columnType(type))}`.execute(db);
    }
  }
  await sql`ALTER TABLE workflow_runs ADD COLUMN revision integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE workflow_runs ADD COLUMN timeout_at ${sql.raw(dialect.columnType('timestamp'))}`.execute(db);
  await sql`CREATE INDEX workflow_runs_running ON workflow_runs (workflow_id) WHERE status = 'running'`.execute(db);
  await sql`CREATE INDEX background_jobs_claimable ON background_jobs (run_at) WHERE status IN ('queued', 'running')`.execute(db);
  await sql`DROP INDEX background_jobs_due`.execute(db);
  await sql`CREATE INDEX workflow_runs_timeout ON workflow_runs (timeout_at) WHERE timeout_at IS NOT NULL AND ended_at IS NULL`.execute(db);
}
