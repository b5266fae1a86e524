import type { Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type RunRow = Selectable<MetaSchema['workflow_runs']>;
export type StepRow = Selectable<MetaSchema['workflow_steps']>;

/** A workflow of the application with its published version's definition (null when never published). */
export interface WorkflowWithVersion {
  id: string;
  name: string;
  description: string;
  status: string;
  ownerId: string;
  createdAt: number;
  updatedAt: number;
  version: number;
  definition: string | null;
}

function workflowsWithVersions(db: Executor, appId: string) {
  return db
    .selectFrom('workflows as w')
    .leftJoin('workflow_versions as v', (join) => join.onRef('v.workflow_id', '=', 'w.id').onRef('v.version', '=', 'w.published_version'))
    .select(['w.id', 'w.name', 'w.description', 'w.status', 'w.owner_id', 'w.created_at', 'w.updated_at', 'w.published_version', 'v.definition'])
    .where('w.app_id', '=', appId);
}

function toWorkflow(row: { id: string; name: string; description: string; status: string; owner_id: string; created_at: number; updated_at: number; published_version: number; definition: string | null }): WorkflowWithVersion {
  return { id: row.id, name: row.name, description: row.description, status: row.status, ownerId: row.owner_id, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at), version: Number(row.published_version), definition: row.definition };
}

/** The application's workflows that were published (on or closed since), oldest first. */
export async function publishedWorkflows(db: Executor, appId: string): Promise<WorkflowWithVersion[]> {
  const rows = await workflowsWithVersions(db, appId).where('w.published_version', '>', 0).orderBy('w.created_at').orderBy('w.id').execute();
  return rows.map(toWorkflow);
}

/** One workflow of the application, or undefined. */
export async function findWorkflow(db: Executor, appId: string, workflowId: string): Promise<WorkflowWithVersion | undefined> {
  const row = await workflowsWithVersions(db, appId).where('w.id', '=', workflowId).executeTakeFirst();
  return row ? toWorkflow(row) : undefined;
}

/** A page of a workflow's runs, newest first, of the given statuses (all when null), and how many there are. */
export async function listRuns(db: Executor, workflowId: string, statuses: string[] | null, offset: number, limit: number): Promise<{ rows: RunRow[]; total: number }> {
  let query = db.selectFrom('workflow_runs').where('workflow_id', '=', workflowId);
  if (statuses) query = query.where('status', 'in', statuses);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function findRun(db: Executor, workflowId: string, runId: string): Promise<RunRow | undefined> {
  return db.selectFrom('workflow_runs').selectAll().where('id', '=', runId).where('workflow_id', '=', workflowId).executeTakeFirst();
}

export async function stepsOf(db: Executor, runId: string): Promise<StepRow[]> {
  return db.selectFrom('workflow_steps').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
}

/** A run's status, outputs and error (for a hook call waiting for it). */
export async function runEnd(db: Executor, runId: string): Promise<{ status: string; outputs: string | null; error: string | null } | undefined> {
  return db.selectFrom('workflow_runs').select(['status', 'outputs', 'error']).where('id', '=', runId).executeTakeFirst();
}
