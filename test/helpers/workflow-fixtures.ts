import { newRowId } from '../../src/shared/ids.js';
import type { Executor } from '../../src/db/connection.js';
import type { NodeSpec, TriggerSpec, WorkflowDefinition } from '../../src/workflow/index.js';
import { forgetWorksheetListeners, TriggerType } from '../../src/workflow/index.js';
import { onJobsAnnounced } from '../../src/jobs/index.js';
import type { ApiContext, ApiResponse } from './api-harness.js';

/** A node for a test workflow: alias, type, config, and where it sits. */
export function node(alias: string, type: string, config: unknown, prev: string | null, parent: string | null = null): NodeSpec {
  return { id: newRowId(), alias, type, name: alias, description: '', prev, parent, config };
}

/**
 * Stores a published workflow straight in the tables of `db`, as publishing does (`workflows` and
 * its version), for tests of the runner that do not go through the definitions API; `extra` adds
 * to the definition (`limits`, `showsProcess`). A server in another process learns of it at its
 * worksheet's first write or within 5 seconds (the trigger cache).
 */
export async function storePublishedWorkflow(db: Executor, appId: string, trigger: TriggerSpec, nodes: NodeSpec[], now: number, extra: Partial<WorkflowDefinition> = {}): Promise<string> {
  const id = newRowId();
  const definition: WorkflowDefinition = { workflowId: id, appId, name: 'Test flow', version: 1, trigger, nodes, ...extra };
  await db
    .insertInto('workflows')
    .values({ id, app_id: appId, name: definition.name, description: '', trigger_type: trigger.type, trigger_alias: trigger.alias, trigger_config: JSON.stringify(trigger.config), trigger_worksheet_id: trigger.worksheetId, status: 'published', published_version: 1, draft_version: 1, owner_id: 'user-api', created_at: now, updated_at: now })
    .execute();
  await db.insertInto('workflow_versions').values({ workflow_id: id, version: 1, definition: JSON.stringify(definition), published_at: now, published_by: 'user-api' }).execute();
  if (trigger.worksheetId) forgetWorksheetListeners(trigger.worksheetId);
  return id;
}

/** `storePublishedWorkflow` in the test's own database and first application. */
export function publishDirect(ctx: ApiContext, trigger: TriggerSpec, nodes: NodeSpec[], now = Date.now(), extra: Partial<WorkflowDefinition> = {}): Promise<string> {
  return storePublishedWorkflow(ctx.database.db, ctx.setup.app.appId, trigger, nodes, now, extra);
}

/** The trigger alias of the counter workflow. */
export const COUNTER_START = 'start_c0un';

/**
 * The workflow of the exactly-once tests, on a worksheet with text fields `hits` and `stage`: when
 * a record is created, read it afresh (`read`), append "1" to its `hits` (`bump`), then set its
 * `stage` to "done" (`finish`). `bump` is not idempotent: a record whose `hits` is "11" had its
 * step applied twice. Two writing steps, so that a run has a commit between steps.
 */
export function counterWorkflow(worksheetId: string, field: { hits: string; stage: string }): { trigger: TriggerSpec; nodes: NodeSpec[] } {
  const record = { kind: 'record', node: COUNTER_START };
  return {
    trigger: { type: TriggerType.worksheet, alias: COUNTER_START, worksheetId, config: { worksheetId, event: 'create' } },
    nodes: [
      node('read', 'get_single', { worksheetId, record }, COUNTER_START),
      node('bump', 'update_record', { worksheetId, record, fields: [{ fieldId: field.hits, value: { kind: 'template', value: `1$read-${field.hits}$` } }] }, 'read'),
      node('finish', 'update_record', { worksheetId, record, fields: [{ fieldId: field.stage, value: { kind: 'literal', value: 'done' } }] }, 'bump'),
    ],
  };
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

/**
 * Sends a hook call (`POST /v3/app/workflow/hooks/{processId}`) and, once its run is queued, runs
 * the queue. The call's answer is still pending when the run then waits (on a to-do, say): it
 * answers once the run ends, or after WORKFLOW_HOOK_WAIT_MS.
 */
export async function startHookCall<T>(ctx: ApiContext, processId: string, body: unknown, headers?: Record<string, string>): Promise<{ answer: Promise<ApiResponse<T>> }> {
  const announced = new Promise<void>((resolve) => {
    const off = onJobsAnnounced(() => {
      off();
      resolve();
    });
  });
  const answer = ctx.call<T>('POST', `/v3/app/workflow/hooks/${processId}`, body, headers);
  await Promise.race([announced, answer]);
  await ctx.app.jobs.runUntilIdle();
  return { answer };
}

/** A hook call whose run ends when the queue has run: its answer. */
export async function callAndRun<T>(ctx: ApiContext, processId: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>> {
  return (await startHookCall<T>(ctx, processId, body, headers)).answer;
}
