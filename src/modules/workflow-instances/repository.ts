import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { MetaSchema } from '../../db/schema.js';

/** SQL of to-dos (`workflow_work_items`) and of the runs they belong to, as this module reads them. */

export type WorkItemRow = Selectable<MetaSchema['workflow_work_items']>;

/** A run as the to-do services need it. */
export interface InstanceRun {
  id: string;
  app_id: string;
  workflow_id: string;
  version: number;
  status: string;
  cursor: string | null;
  step_count: number;
  initiator_id: string;
  worksheet_id: string | null;
  row_id: string | null;
  started_at: number;
  ended_at: number | null;
  error: string | null;
}

const RUN_COLUMNS = ['id', 'app_id', 'workflow_id', 'version', 'status', 'cursor', 'step_count', 'initiator_id', 'worksheet_id', 'row_id', 'started_at', 'ended_at', 'error'] as const;

const runOf = (row: InstanceRun): InstanceRun => ({ ...row, version: Number(row.version), step_count: Number(row.step_count), started_at: Number(row.started_at), ended_at: row.ended_at === null ? null : Number(row.ended_at) });

export async function insertItems(db: Executor, rows: ReadonlyArray<Insertable<MetaSchema['workflow_work_items']>>): Promise<void> {
  if (rows.length > 0) await db.insertInto('workflow_work_items').values([...rows]).execute();
}

/** The to-dos of one step of a run (every round), oldest first. */
export async function itemsOfStep(db: Executor, runId: string, seq: number): Promise<WorkItemRow[]> {
  return db.selectFrom('workflow_work_items').selectAll().where('run_id', '=', runId).where('seq', '=', seq).orderBy('created_at').orderBy('id').execute();
}

/** Every to-do of a run, oldest first (the history of opinions). */
export async function itemsOfRun(db: Executor, runId: string): Promise<WorkItemRow[]> {
  return db.selectFrom('workflow_work_items').selectAll().where('run_id', '=', runId).orderBy('created_at').orderBy('id').execute();
}

/** The to-dos of these runs, oldest first. */
export async function itemsOfRuns(db: Executor, runIds: readonly string[]): Promise<WorkItemRow[]> {
  if (runIds.length === 0) return [];
  return db.selectFrom('workflow_work_items').selectAll().where('run_id', 'in', [...runIds]).orderBy('created_at').orderBy('id').execute();
}

/** Closes the pending to-dos of a run's step (all of the run's when `seq` is null), but `except`; returns how many. */
export async function closePending(db: Executor, runId: string, seq: number | null, how: { status: number; action: string; opinion?: string | null; actedBy: string | null; now: number }, except?: string): Promise<number> {
  let query = db
    .updateTable('workflow_work_items')
    .set({ status: how.status, action: how.action, opinion: how.opinion ?? null, acted_by: how.actedBy, acted_at: how.now })
    .where('run_id', '=', runId)
    .where('status', '=', 0)
    .where('kind', '<>', 5);
  if (seq !== null) query = query.where('seq', '=', seq);
  if (except !== undefined) query = query.where('id', '<>', except);
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

export async function itemsByIds(db: Executor, ids: readonly string[]): Promise<WorkItemRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('workflow_work_items').selectAll().where('id', 'in', [...ids]).execute();
}

/** The pending to-dos of these runs, of these kinds (and, given, this assignee's). */
export async function pendingItemsOf(db: Executor, runIds: readonly string[], kinds: readonly number[], assigneeId: string | null): Promise<WorkItemRow[]> {
  if (runIds.length === 0) return [];
  let query = db.selectFrom('workflow_work_items').selectAll().where('run_id', 'in', [...runIds]).where('kind', 'in', [...kinds]).where('status', '=', 0);
  if (assigneeId !== null) query = query.where('assignee_id', '=', assigneeId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** Records a decision on a pending to-do; false when it was no longer pending (decided meanwhile). */
export async function decideItem(db: Executor, id: string, decision: { status: number; action: string; opinion: string | null; filled: string | null; actedBy: string; now: number }): Promise<boolean> {
  const result = await db
    .updateTable('workflow_work_items')
    .set({ status: decision.status, action: decision.action, opinion: decision.opinion, filled: decision.filled, acted_by: decision.actedBy, acted_at: decision.now })
    .where('id', '=', id)
    .where('status', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** How many to-dos of one kind of a step are still pending. */
export async function countPending(db: Executor, runId: string, seq: number, kind: number): Promise<number> {
  const row = await db
    .selectFrom('workflow_work_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('run_id', '=', runId)
    .where('seq', '=', seq)
    .where('kind', '=', kind)
    .where('status', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks a copy read (cc: 0 unread → 1 read). */
export async function markCopyRead(db: Executor, id: string, now: number): Promise<void> {
  await db.updateTable('workflow_work_items').set({ status: 1, action: 'read', acted_at: now }).where('id', '=', id).where('kind', '=', 5).where('status', '=', 0).execute();
}

export async function runsByIds(db: Executor, ids: readonly string[]): Promise<Map<string, InstanceRun>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('workflow_runs').select(RUN_COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((row) => [row.id, runOf(row as InstanceRun)]));
}

/** Whether anyone decided an approval or submitted a fill-in of the run (a revoke is too late then). */
export async function anyoneActed(db: Executor, runId: string): Promise<WorkItemRow | undefined> {
  return db.selectFrom('workflow_work_items').selectAll().where('run_id', '=', runId).where('kind', 'in', [3, 4]).where('status', 'not in', [0, 5]).orderBy('acted_at').limit(1).executeTakeFirst();
}

/** When the instance was last urged, or null. */
export async function lastUrged(db: Executor, runId: string): Promise<number | null> {
  const row = await db.selectFrom('workflow_urges').select('urged_at').where('run_id', '=', runId).executeTakeFirst();
  return row ? Number(row.urged_at) : null;
}

export async function recordUrge(db: Executor, runId: string, by: string, now: number): Promise<void> {
  await db
    .insertInto('workflow_urges')
    .values({ run_id: runId, urged_at: now, urged_by: by })
    .onConflict((oc) => oc.column('run_id').doUpdateSet({ urged_at: now, urged_by: by }))
    .execute();
}

/** Names of accounts (pseudo-users are not among them). */
export async function accountNames(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'fullname']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.fullname]));
}

export async function workflowName(db: Executor, workflowId: string): Promise<string> {
  const row = await db.selectFrom('workflows').select('name').where('id', '=', workflowId).executeTakeFirst();
  return row?.name ?? '';
}

/**
 * Locks a run for the rest of the transaction where writers run at once (PostgreSQL), so that the
 * decisions and actions on one instance are taken one after another; SQLite's single writer does it anyway.
 */
export async function lockRun(db: Executor, dialect: SqlDialect, runId: string): Promise<void> {
  if (dialect.lockRowsSql) await dialect.lockRowsSql('workflow_runs', [runId]).execute(db);
}
