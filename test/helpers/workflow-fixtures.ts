import { newRowId } from '../../src/shared/ids.js';
import type { NodeSpec, TriggerSpec, WorkflowDefinition } from '../../src/workflow/index.js';
import { forgetWorksheetListeners } from '../../src/workflow/index.js';
import type { ApiContext } from './api-harness.js';

/** A node for a test workflow: alias, type, config, and where it sits. */
export function node(alias: string, type: string, config: unknown, prev: string | null, parent: string | null = null): NodeSpec {
  return { id: newRowId(), alias, type, name: alias, description: '', prev, parent, config };
}

/**
 * Stores a published workflow straight in the tables, as publishing does (`workflows` and its
 * version), for tests of the runner that do not go through the definitions API.
 */
export async function publishDirect(ctx: ApiContext, trigger: TriggerSpec, nodes: NodeSpec[], now = Date.now()): Promise<string> {
  const id = newRowId();
  const appId = ctx.setup.app.appId;
  const definition: WorkflowDefinition = { workflowId: id, appId, name: 'Test flow', version: 1, trigger, nodes };
  await ctx.database.db
    .insertInto('workflows')
    .values({ id, app_id: appId, name: 'Test flow', description: '', trigger_type: trigger.type, trigger_alias: trigger.alias, trigger_config: JSON.stringify(trigger.config), trigger_worksheet_id: trigger.worksheetId, status: 'published', published_version: 1, draft_version: 1, owner_id: 'user-api', created_at: now, updated_at: now })
    .execute();
  await ctx.database.db.insertInto('workflow_versions').values({ workflow_id: id, version: 1, definition: JSON.stringify(definition), published_at: now, published_by: 'user-api' }).execute();
  if (trigger.worksheetId) forgetWorksheetListeners(trigger.worksheetId);
  return id;
}

/** A run and its steps as stored. */
export async function runsOf(ctx: ApiContext, workflowId: string) {
  const runs = await ctx.database.db.selectFrom('workflow_runs').selectAll().where('workflow_id', '=', workflowId).orderBy('started_at').orderBy('id').execute();
  return Promise.all(
    runs.map(async (run) => ({
      ...run,
      steps: await ctx.database.db.selectFrom('workflow_steps').selectAll().where('run_id', '=', run.id).orderBy('seq').execute(),
    })),
  );
}
