import type { Executor } from '../db/connection.js';
import { onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs } from '../jobs/index.js';
import { MAX_CHAIN_DEPTH, RUN_JOB, TriggerType, type WorkflowDefinition } from './definition.js';
import { createRuns, readDefinition } from './run-store.js';

/** The run a sub-process's run reports its end to: the parent run, its waiting node and that step's number. */
export interface ParentLink {
  runId: string;
  nodeAlias: string;
  seq: number;
}

/** What a run started by another run (or, later, by a hook call) needs. */
export interface ApiRunStart {
  workflowId: string;
  appId: string;
  inputs: Record<string, unknown>;
  initiatorId: string;
  chainDepth: number;
  /** Set when the starting run waits for this one to end. */
  parent?: ParentLink;
}

/** The declared inputs of an API-callable workflow's trigger (`config.inputs[{name, required}]`). */
function missingInputs(definition: WorkflowDefinition, inputs: Record<string, unknown>): string[] {
  const declared = (definition.trigger.config as { inputs?: unknown }).inputs;
  if (!Array.isArray(declared)) return [];
  return declared
    .filter((input): input is { name: string; required?: boolean } => typeof input === 'object' && input !== null && typeof (input as { name?: unknown }).name === 'string')
    .filter((input) => input.required === true && (inputs[input.name] === undefined || inputs[input.name] === null || inputs[input.name] === ''))
    .map((input) => input.name);
}

/**
 * Starts a run of a published, API-callable workflow (trigger type 17) of the application, in the
 * caller's transaction: the run is queued with its job and goes when the transaction commits. Its
 * trigger's output is `{kind: 'sub_process', inputs, fields: inputs}` (as a hook call's), so that its nodes read an input as a
 * field of the trigger (`{kind: 'field', node: <triggerAlias>, fieldId: <input name>}`). Throws
 * (an Error naming the problem) when the workflow cannot be started.
 */
export async function startApiRun(trx: Executor, start: ApiRunStart, now: number): Promise<string> {
  const workflow = await trx.selectFrom('workflows').select(['id', 'name', 'app_id', 'status', 'published_version']).where('id', '=', start.workflowId).executeTakeFirst();
  if (!workflow || workflow.app_id !== start.appId) throw new Error(`no workflow "${start.workflowId}" in this application`);
  if (workflow.status !== 'published') throw new Error(`the workflow "${workflow.name}" is not published`);
  const version = Number(workflow.published_version);
  const definition = JSON.parse((await readDefinition(trx, workflow.id, version)) ?? 'null') as WorkflowDefinition | null;
  if (!definition) throw new Error(`the workflow "${workflow.name}" has no published version ${version}`);
  if (definition.trigger.type !== TriggerType.api) throw new Error(`the workflow "${workflow.name}" cannot be started by another workflow (its trigger is of type ${definition.trigger.type}, not ${TriggerType.api})`);
  const missing = missingInputs(definition, start.inputs);
  if (missing.length > 0) throw new Error(`the workflow "${workflow.name}" needs the input${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`);
  if (start.chainDepth >= MAX_CHAIN_DEPTH) throw new Error(`not started: the chain of workflows starting each other reached the limit of ${MAX_CHAIN_DEPTH}`);
  const [runId] = await createRuns(
    trx,
    [{ workflowId: workflow.id, version, appId: start.appId, worksheetId: null, rowId: null, trigger: { kind: 'sub_process', inputs: start.inputs, fields: start.inputs, ...(start.parent ? { parent: start.parent } : {}) }, initiatorId: start.initiatorId, chainDepth: start.chainDepth }],
    now,
  );
  await enqueueJobs(trx, [{ kind: RUN_JOB, payload: { runId } }], now);
  onCommit(trx, announceJobs);
  return runId;
}

/** The parent a run reports its end to, if any (from its trigger). */
export function parentOf(trigger: Record<string, unknown>): ParentLink | null {
  const parent = trigger.kind === 'sub_process' ? (trigger.parent as ParentLink | undefined) : undefined;
  return parent && typeof parent.runId === 'string' ? parent : null;
}
