import { administers, forbidden } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { inputsOf, type WorkflowDefinition } from '../../workflow/index.js';
import { emptyReferenceSet, resolveReferences } from '../records/index.js';
import { outputsOf, presentInput, presentOutput, PROCESS_TYPES } from './parameters.js';
import * as repository from './repository.js';

const iso = (millis: number) => new Date(Number(millis)).toISOString();
const isoOrNull = (millis: number | null) => (millis === null ? null : iso(millis));
const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** A workflow that can be started through the API: published (on or closed since) with a webhook or API trigger. */
export interface HookProcess {
  workflow: repository.WorkflowWithVersion;
  definition: WorkflowDefinition;
  processType: number;
}

function hookProcessOf(workflow: repository.WorkflowWithVersion): HookProcess | null {
  if (!workflow.definition) return null;
  const definition = JSON.parse(workflow.definition) as WorkflowDefinition;
  const processType = PROCESS_TYPES.get(definition.trigger.type);
  return processType === undefined ? null : { workflow, definition, processType };
}

/** The process of the caller's application with this id that the API can start; 10007 otherwise. */
export async function findHookProcess(ctx: ServiceContext, processId: string): Promise<HookProcess> {
  const workflow = await repository.findWorkflow(ctx.db, ctx.actor.appId, processId);
  const process = workflow ? hookProcessOf(workflow) : null;
  if (!process) throw AppError.notFound(`process "${processId.slice(0, 80)}" does not exist in this application or cannot be triggered through the API (a published webhook or API process can)`);
  return process;
}

/**
 * The processes the API can start (`GET /v3/app/workflow/processes`): type 6 webhook, 10 API
 * process (facts §7.1); status 1 on, 0 closed; alias the start node's.
 */
export async function listProcesses(ctx: ServiceContext) {
  const processes = (await repository.publishedWorkflows(ctx.db, ctx.actor.appId)).map(hookProcessOf).filter((p): p is HookProcess => p !== null);
  const refs = emptyReferenceSet();
  for (const { workflow } of processes) refs.account.add(workflow.ownerId);
  const people = await resolveReferences(ctx.db, refs);
  return {
    processes: processes.map(({ workflow, definition, processType }) => {
      const owner = people.accounts.get(workflow.ownerId);
      return {
        id: workflow.id,
        name: workflow.name,
        alias: definition.trigger.alias,
        type: processType,
        description: workflow.description,
        status: workflow.status === 'published' ? 1 : 0,
        _createdAt: iso(workflow.createdAt),
        _updatedAt: iso(workflow.updatedAt),
        _owner: { accountId: workflow.ownerId, fullname: owner?.fullname ?? '', avatar: owner?.avatar ?? '' },
      };
    }),
  };
}

/** A process's parameters (`GET /v3/app/workflow/processes/{process_id}`), from its published version. */
export async function getProcess(ctx: ServiceContext, processId: string) {
  const { workflow, definition } = await findHookProcess(ctx, processId);
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    inputParameters: inputsOf(definition.trigger).map(presentInput),
    outputParameters: outputsOf(definition).map(presentOutput),
  };
}

/** Run statuses by the public instance status numbers (facts §7.6): 1 in progress, 2 passed, 3 aborted, 4 failed, 5 refused. */
const STATUS_NUMBERS: Readonly<Record<string, number>> = { queued: 1, running: 1, waiting: 1, passed: 2, aborted: 3, failed: 4, refused: 5 };
const STATUSES = Object.keys(STATUS_NUMBERS);

/** The statuses a `status` filter names: our names or public numbers, comma-separated. */
function statusesOf(filter: string | undefined): string[] | null {
  if (filter === undefined || filter.trim() === '') return null;
  return filter.split(',').flatMap((part) => {
    const name = part.trim().toLowerCase();
    if (STATUSES.includes(name)) return [name];
    const byNumber = STATUSES.filter((s) => String(STATUS_NUMBERS[s]) === name || (name === '6' && s === 'aborted'));
    if (byNumber.length === 0) throw AppError.invalidValue(`status: unknown status "${part.trim().slice(0, 40)}"; statuses are ${STATUSES.join(', ')} (or the public numbers 1 to 5)`);
    return byNumber;
  });
}

async function workflowForHistory(ctx: ServiceContext, workflowId: string) {
  if (!administers(ctx.actor)) throw forbidden(ctx.actor, "only an administrator of the application may read a workflow's runs");
  const workflow = await repository.findWorkflow(ctx.db, ctx.actor.appId, workflowId);
  if (!workflow) throw AppError.notFound(`workflow "${workflowId.slice(0, 80)}" does not exist in this application`);
  return workflow;
}

function presentRun(row: repository.RunRow) {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    version: Number(row.version),
    status: row.status,
    instanceStatus: STATUS_NUMBERS[row.status] ?? 1,
    worksheetId: row.worksheet_id,
    rowId: row.row_id,
    trigger: parsed(row.trigger),
    initiatorId: row.initiator_id,
    chainDepth: Number(row.chain_depth),
    currentNode: row.cursor,
    outputs: parsed(row.outputs),
    error: row.error,
    stepCount: Number(row.step_count),
    startedAt: iso(row.started_at),
    updatedAt: iso(row.updated_at),
    endedAt: isoOrNull(row.ended_at),
  };
}

/** A workflow's runs, newest first, paged, optionally of some statuses. */
export async function listRuns(ctx: ServiceContext, workflowId: string, query: { pageIndex?: number; pageSize?: number; status?: string }) {
  const workflow = await workflowForHistory(ctx, workflowId);
  const pageIndex = query.pageIndex ?? 1;
  const pageSize = query.pageSize ?? 20;
  const { rows, total } = await repository.listRuns(ctx.db, workflow.id, statusesOf(query.status), (pageIndex - 1) * pageSize, pageSize);
  return { runs: rows.map(presentRun), total, pageIndex, pageSize };
}

/** One run with each of its steps: input, output, exit, timing and error. */
export async function getRun(ctx: ServiceContext, workflowId: string, runId: string) {
  const workflow = await workflowForHistory(ctx, workflowId);
  const run = await repository.findRun(ctx.db, workflow.id, runId);
  if (!run) throw AppError.notFound(`run "${runId.slice(0, 80)}" of this workflow does not exist`);
  const steps = await repository.stepsOf(ctx.db, run.id);
  return {
    ...presentRun(run),
    steps: steps.map((step) => ({
      seq: Number(step.seq),
      nodeAlias: step.node_alias,
      nodeType: step.node_type,
      status: step.status,
      input: parsed(step.input),
      output: parsed(step.output),
      exit: step.exit,
      error: step.error,
      startedAt: iso(step.started_at),
      endedAt: isoOrNull(step.ended_at),
      durationMs: step.ended_at === null ? null : Number(step.ended_at) - Number(step.started_at),
    })),
  };
}
