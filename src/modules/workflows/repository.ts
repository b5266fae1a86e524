import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';
import type { NodeSpec } from '../../workflow/index.js';

export type WorkflowRow = Selectable<MetaSchema['workflows']>;
export type NodeRow = Selectable<MetaSchema['workflow_nodes']>;
type NodeInsert = Insertable<MetaSchema['workflow_nodes']>;

/** The application's workflow with this id, unless it was deleted. */
export async function findWorkflow(db: Executor, appId: string, id: string): Promise<WorkflowRow | undefined> {
  return db.selectFrom('workflows').selectAll().where('id', '=', id).where('app_id', '=', appId).where('status', '!=', 'deleted').executeTakeFirst();
}

/**
 * The workflow, held until the caller's transaction ends: a no-op UPDATE takes the row's lock
 * first (on both engines), so two edits of one draft (a node batch, a deletion, a publication)
 * never interleave: whoever comes second works on what the first committed.
 */
export async function claimWorkflow(db: Executor, appId: string, id: string): Promise<WorkflowRow | undefined> {
  await db.updateTable('workflows').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).where('app_id', '=', appId).execute();
  return findWorkflow(db, appId, id);
}

export async function listWorkflows(db: Executor, appId: string, filter: { triggerType?: number; published?: boolean }): Promise<WorkflowRow[]> {
  let query = db.selectFrom('workflows').selectAll().where('app_id', '=', appId).where('status', '!=', 'deleted');
  if (filter.triggerType !== undefined) query = query.where('trigger_type', '=', filter.triggerType);
  if (filter.published !== undefined) query = query.where('status', filter.published ? '=' : '!=', 'published');
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function insertWorkflow(db: Executor, row: Insertable<MetaSchema['workflows']>): Promise<void> {
  await db.insertInto('workflows').values(row).execute();
}

export async function updateWorkflow(db: Executor, id: string, changes: Updateable<MetaSchema['workflows']>): Promise<void> {
  await db.updateTable('workflows').set(changes).where('id', '=', id).execute();
}

/** The draft's nodes, oldest first. */
export async function loadNodes(db: Executor, workflowId: string): Promise<NodeRow[]> {
  return db.selectFrom('workflow_nodes').selectAll().where('workflow_id', '=', workflowId).orderBy('created_at').orderBy('id').execute();
}

export async function insertNodes(db: Executor, workflowId: string, nodes: readonly NodeSpec[], now: number): Promise<void> {
  const rows: NodeInsert[] = nodes.map((n) => ({ id: n.id, workflow_id: workflowId, alias: n.alias, node_type: n.type, name: n.name, description: n.description, prev_alias: n.prev, parent_alias: n.parent, config: JSON.stringify(n.config), created_at: now }));
  // One statement per 100 rows keeps within PostgreSQL's and SQLite's bound-parameter limits.
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('workflow_nodes').values(rows.slice(i, i + 100)).execute();
}

/** Re-links a node: its new place in its sequence. */
export async function setPrevious(db: Executor, nodeId: string, prevAlias: string | null): Promise<void> {
  await db.updateTable('workflow_nodes').set({ prev_alias: prevAlias }).where('id', '=', nodeId).execute();
}

export async function deleteNodes(db: Executor, workflowId: string, nodeIds: readonly string[]): Promise<void> {
  if (nodeIds.length > 0) await db.deleteFrom('workflow_nodes').where('workflow_id', '=', workflowId).where('id', 'in', [...nodeIds]).execute();
}

export async function deleteAllNodes(db: Executor, workflowId: string): Promise<void> {
  await db.deleteFrom('workflow_nodes').where('workflow_id', '=', workflowId).execute();
}

export async function insertVersion(db: Executor, row: Insertable<MetaSchema['workflow_versions']>): Promise<void> {
  await db.insertInto('workflow_versions').values(row).execute();
}

/** A published version's definition (JSON), if the workflow has that version. */
export async function findVersion(db: Executor, workflowId: string, version: number): Promise<string | undefined> {
  const row = await db.selectFrom('workflow_versions').select('definition').where('workflow_id', '=', workflowId).where('version', '=', version).executeTakeFirst();
  return row?.definition;
}
