import type { Executor } from '../db/connection.js';
import { onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs } from '../jobs/index.js';
import { MAX_CHAIN_DEPTH, RUN_JOB, TriggerType, type WorkflowDefinition } from './definition.js';
import { createRuns, readDefinition } from './run-store.js';
import { inputFields, inputsOf, readInputs } from './process-inputs.js';
import type { Parameter } from '../modules/workflows/index.js';
import { AppError } from '../shared/app-error.js';

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
  /** The zone date inputs given as instants are read in (the server's `TIME_ZONE`). */
  timeZone: string;
}

/**
 * The inputs read against the version about to run, by the hook's rules (`process-inputs.ts`): a
 * value the child cannot take fails the starting step, naming the input, instead of reaching the
 * child's nodes in a form they do not expect.
 */
function readStartInputs(name: string, parameters: Parameter[], start: ApiRunStart): Record<string, unknown> {
  try {
    return readInputs(parameters, start.inputs, { strict: true, timeZone: start.timeZone });
  } catch (error) {
    if (error instanceof AppError) throw new Error(`the workflow "${name}" cannot start with these inputs: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * Starts a run of a published, API-callable workflow (trigger type 17) of the application, in the
 * caller's transaction: the run is queued with its job and goes when the transaction commits. The
 * run follows the version published now (not the one the starting workflow was checked against
 * when it was published: the child may have been published again since), and its inputs are read
 * against that version's declared inputs. Its trigger's output is `{kind: 'sub_process', inputs,
 * fields}` (as a hook call's: `fields` by name and alias), so that its nodes read an input as a
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
  const parameters = inputsOf(definition.trigger);
  const inputs = readStartInputs(workflow.name, parameters, start);
  if (start.chainDepth >= MAX_CHAIN_DEPTH) throw new Error(`not started: the chain of workflows starting each other reached the limit of ${MAX_CHAIN_DEPTH}`);
  const [runId] = await createRuns(
    trx,
    [{ workflowId: workflow.id, version, appId: start.appId, worksheetId: null, rowId: null, trigger: { kind: 'sub_process', inputs, fields: inputFields(parameters, inputs), ...(start.parent ? { parent: start.parent } : {}) }, initiatorId: start.initiatorId, chainDepth: start.chainDepth }],
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
