import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import { inTransaction, onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs, type ClaimedJob, type JobHandler, type Lease } from '../jobs/index.js';
import { systemActor } from '../access/actors.js';
import type { Actor } from '../shared/actor.js';
import type { ChangeSource } from '../shared/change-source.js';
import type { ServiceContext } from '../shared/service-context.js';
import { RUN_JOB, type WorkflowDefinition } from './definition.js';
import { WorkflowGraph } from './graph.js';
import { RetryLater, type NodeContext, type NodeOutcome, type NodeType, type NodeWake, type TodoPort } from './node-type.js';
import { nodeContext, type NodeServices } from './node-context.js';
import { nodeTypeOf } from './registry.js';
import { parentOf } from './run-starter.js';
import { ENDED, readDefinition, readRun, readWaitState, recordSteps, RunEnded, type RunMove, type RunRow, type RunStatus, type StepRecord } from './run-store.js';

/** What the runner needs from the server. */
export interface RunnerDeps {
  db: Executor;
  clock: () => number;
  timeZone: string;
  log: FastifyBaseLogger;
  /** A service context acting as `actor` on `db` (a step's transaction, or the root connection), its writes marked with `origin`. */
  contextFor(actor: Actor, db: Executor, origin: ChangeSource): ServiceContext;
  /** The organization an application belongs to. */
  organizationOf(appId: string): Promise<string>;
  /** The to-dos of one step (`modules/workflow-instances`), acting in the step's context. */
  todos(ctx: ServiceContext, step: NodeContext['run']): TodoPort;
  /** What nodes reach beyond records: mail, outbound HTTP, notices. */
  services: NodeServices;
}

/** A run job's payload: the run, and what woke it when it waits (a signal: a to-do decided; a timer: a delay or deadline). */
export interface RunJobPayload {
  runId: string;
  signal?: { nodeAlias: string; seq: number; data: Record<string, unknown> };
  timer?: { nodeAlias: string; seq: number };
}

/** The pseudo-user a workflow's writes are attributed to, and that starts the runs no person starts (schedules, date fields). */
export const WORKFLOW_USER = 'user-workflow';

export interface Loaded {
  definition: WorkflowDefinition;
  graph: WorkflowGraph;
}

/** Published versions never change: each is parsed once per process. */
const versions = new Map<string, Loaded>();

/**
 * A published version of a workflow with its graph, parsed once per process.
 * @example const { graph } = await loadVersion(db, run.workflowId, run.version)
 */
export async function loadVersion(db: Executor, workflowId: string, version: number): Promise<Loaded> {
  const key = `${workflowId}@${version}`;
  const cached = versions.get(key);
  if (cached) return cached;
  const text = await readDefinition(db, workflowId, version);
  if (!text) throw new Error(`workflow ${workflowId} has no published version ${version}`);
  const definition = JSON.parse(text) as WorkflowDefinition;
  const graph = new WorkflowGraph(definition.trigger.alias, definition.nodes, (node) => nodeTypeOf(node.type)?.containers?.(node.config as never, node.alias) ?? []);
  const loaded = { definition, graph };
  if (versions.size > 1000) versions.clear();
  versions.set(key, loaded);
  return loaded;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Walks one run as far as it can go: from its cursor, node by node, until it ends or waits. Each
 * step commits with the run's move and the job's fence, so that a step's record writes and its
 * completion commit together and a step is never committed twice. Steps that only compute (a
 * branch, a read) are kept and committed with the next step that writes, waits or ends the run:
 * repeated after a crash, they compute the same.
 */
class RunWalk {
  private readonly pending: Array<{ step: StepRecord; resumes: boolean }> = [];
  private actor: Actor | null = null;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly run: RunRow,
    private readonly loaded: Loaded,
    private readonly lease: Lease,
    private readonly job: Pick<ClaimedJob, 'attempt' | 'maxAttempts'>,
  ) {}

  private async actorOf(): Promise<Actor> {
    this.actor ??= systemActor({ job: `workflow:${this.run.workflowId}`, appId: this.run.appId, organizationId: await this.deps.organizationOf(this.run.appId), accountId: WORKFLOW_USER, writes: true });
    return this.actor;
  }

  /** The node owning the container `alias` sits in, if any. */
  private containerOf(alias: string): NodeContext['container'] {
    const parent = this.loaded.graph.node(alias)?.parent;
    const owner = parent ? this.loaded.graph.ownerOf(parent) : undefined;
    const spec = owner ? this.loaded.graph.node(owner) : undefined;
    return spec ? { alias: spec.alias, type: spec.type, config: spec.config } : undefined;
  }

  private async contextIn(db: Executor, nodeAlias: string, resumes = false): Promise<NodeContext> {
    const actor = await this.actorOf();
    const service = this.deps.contextFor(actor, db, { type: 2, triggerWorkflow: true, chainDepth: this.run.chainDepth + 1 });
    const { clock, timeZone, log } = this.deps;
    const seq = this.seqOf(resumes);
    const nodeName = this.loaded.graph.node(nodeAlias)?.name ?? nodeAlias;
    const todos = this.deps.todos(service, { id: this.run.id, workflowId: this.run.workflowId, appId: this.run.appId, initiatorId: this.run.initiatorId, nodeAlias, nodeName, seq, worksheetId: this.run.worksheetId, rowId: this.run.rowId, attempt: this.job.attempt, maxAttempts: this.job.maxAttempts });
    const container = this.containerOf(nodeAlias);
    const place = { run: this.run, nodeAlias, nodeName, seq, attempt: this.job.attempt, maxAttempts: this.job.maxAttempts, organizationId: actor.organizationId ?? '', service, db, clock, timeZone, log, todos, ...(container ? { container } : {}) };
    return nodeContext(this.deps.services, place);
  }

  /** The number the step of the node at the cursor has (or will have, once the kept steps are committed before it). */
  private seqOf(resumes: boolean): number {
    return resumes ? this.run.stepCount : this.run.stepCount + this.pending.length + 1;
  }

  /**
   * Commits the kept steps and `step` with the run's move, fenced on the job, in `db` (joining the
   * step's transaction when it is one); `after` runs in the same transaction.
   */
  private async commit(db: Executor, move: RunMove, step: StepRecord | null, resumes = false, after?: (trx: Executor) => Promise<void>): Promise<void> {
    const now = this.deps.clock();
    const before = { status: this.run.status, cursor: this.run.cursor, state: this.run.state, stepCount: this.run.stepCount };
    try {
      await inTransaction(db, async (trx) => {
        await this.lease.fence(trx);
        await recordSteps(trx, this.run, [...this.pending, ...(step ? [{ step, resumes }] : [])], move, now);
        if (ENDED.has(move.status)) await signalParent(trx, this.run, move.status, move.outputs, now);
        await after?.(trx);
      });
    } catch (error) {
      // Rolled back: the run is where it was (recordStep moves the in-memory run as it writes).
      Object.assign(this.run, before);
      throw error;
    }
    this.pending.length = 0;
  }

  /** Runs until the run ends or waits. */
  async walk(wake: NodeWake | null): Promise<void> {
    if (this.run.status === 'queued') await this.start();
    if (this.run.status === 'waiting') {
      if (!wake) return;
      await this.resume(wake);
    }
    while (this.run.status === 'running') await this.step();
  }

  /** The trigger's step: the record that triggered the run (when there is one) becomes the trigger node's output. */
  private async start(): Promise<void> {
    const { trigger } = this.loaded.definition;
    let output: Record<string, unknown> = { ...this.run.trigger };
    if (this.run.worksheetId && this.run.rowId) {
      const ctx = await this.contextIn(this.deps.db, trigger.alias);
      const record = await ctx.records.get(this.run.worksheetId, this.run.rowId);
      output = { ...output, worksheetId: this.run.worksheetId, rowId: this.run.rowId, fields: record?.fields ?? {} };
    }
    // Value references may name the trigger by its alias or by the reserved word `trigger`.
    this.run.state = { ...this.run.state, [trigger.alias]: output, trigger: output };
    this.pending.push({ step: { nodeAlias: trigger.alias, nodeType: 'trigger', status: 'done', output, exit: 'next', startedAt: this.deps.clock() }, resumes: false });
    this.run.status = 'running';
    this.run.cursor = this.loaded.graph.first(null);
  }

  private nodeAt(alias: string): { type: NodeType; config: unknown } {
    const spec = this.loaded.graph.node(alias)!;
    return { type: nodeTypeOf(spec.type)!, config: spec.config };
  }

  private async step(): Promise<void> {
    const alias = this.run.cursor;
    if (alias === null) {
      await this.commit(this.deps.db, { status: 'passed', cursor: null, state: this.run.state }, null, false, (trx) => this.lease.finish(trx));
      return;
    }
    const { type, config } = this.nodeAt(alias);
    const startedAt = this.deps.clock();
    if (type.enter) {
      const path = await type.enter(config as never, await this.contextIn(this.deps.db, alias));
      this.keep({ nodeAlias: alias, nodeType: type.type, status: 'done', exit: path ?? 'none', output: { path }, startedAt }, false);
      this.run.state = { ...this.run.state, [alias]: { exit: path ?? 'none', path } };
      this.run.cursor = (path && this.loaded.graph.first(path)) || this.loaded.graph.after(alias);
      return;
    }
    if (type.effects === 'database') {
      await this.runInside(alias, type, config, startedAt);
      return;
    }
    let outcome: NodeOutcome;
    try {
      outcome = await type.run(config as never, await this.contextIn(this.deps.db, alias));
    } catch (error) {
      await this.failed(alias, type, error, startedAt, false);
      return;
    }
    if (type.effects === 'none' && 'exit' in outcome && !outcome.end) {
      this.advance(alias, type, outcome, startedAt, false, true);
      return;
    }
    await this.settle(alias, type, outcome, startedAt, false);
  }

  /** A node whose writes commit with its step: run inside the step's transaction. */
  private async runInside(alias: string, type: NodeType, config: unknown, startedAt: number, wake?: NodeWake): Promise<void> {
    let settled = false;
    // The actor's organization is looked up on the root connection: before the transaction, since
    // SQLite's one connection is the transaction's until it ends (a run without a record, started
    // by a schedule or a hook, reaches its first node without having looked it up).
    await this.actorOf();
    try {
      await inTransaction(this.deps.db, async (trx) => {
        const ctx = await this.contextIn(trx, alias, wake !== undefined);
        const outcome = wake ? await type.resume!(config as never, wake, ctx) : await type.run(config as never, ctx);
        await this.settleIn(trx, alias, type, outcome, startedAt, wake !== undefined);
        settled = true;
      });
    } catch (error) {
      if (settled) throw error;
      await this.failed(alias, type, error, startedAt, wake !== undefined);
    }
  }

  private keep(step: StepRecord, resumes: boolean): void {
    this.pending.push({ step, resumes });
  }

  /**
   * Moves past a node that left by an exit, keeping its step for the next commit: to the node after
   * it, or where the outcome says (back to an earlier node, out of its container).
   */
  private advance(alias: string, type: NodeType, outcome: Extract<NodeOutcome, { exit: string }>, startedAt: number, resumes: boolean, keep: boolean): StepRecord {
    const output = { ...(outcome.output ?? {}), exit: outcome.exit };
    const step: StepRecord = { nodeAlias: alias, nodeType: type.type, status: 'done', output, exit: outcome.exit, startedAt };
    this.run.state = { ...this.run.state, [alias]: output };
    const owner = outcome.container ? this.containerOf(alias)?.alias : undefined;
    if (owner) this.run.state = { ...this.run.state, [owner]: { ...this.run.state[owner], exit: outcome.container!.exit } };
    if (outcome.goTo !== undefined && !this.loaded.graph.node(outcome.goTo)) throw new Error(`node "${alias}" goes to "${outcome.goTo}", which is not a node of this workflow`);
    this.run.cursor = outcome.goTo ?? (owner && outcome.container!.leave ? this.loaded.graph.after(owner) : this.loaded.graph.after(alias));
    if (keep) this.keep(step, resumes);
    return step;
  }

  private async settle(alias: string, type: NodeType, outcome: NodeOutcome, startedAt: number, resumes: boolean): Promise<void> {
    await inTransaction(this.deps.db, (trx) => this.settleIn(trx, alias, type, outcome, startedAt, resumes));
  }

  /** Commits a node's outcome in `trx` (which holds its writes, if any). */
  private async settleIn(trx: Executor, alias: string, type: NodeType, outcome: NodeOutcome, startedAt: number, resumes: boolean): Promise<void> {
    if ('wait' in outcome) {
      const seq = this.seqOf(resumes);
      const step: StepRecord = { nodeAlias: alias, nodeType: type.type, status: 'waiting', output: { wait: outcome.wait.state ?? {} }, startedAt };
      const until = outcome.wait.until;
      await this.commit(trx, { status: 'waiting', cursor: alias, state: this.run.state }, step, resumes, async () => {
        await this.lease.finish(trx);
        if (until !== undefined) {
          const payload: RunJobPayload = { runId: this.run.id, timer: { nodeAlias: alias, seq } };
          await enqueueJobs(trx, [{ kind: RUN_JOB, payload, runAt: until }], this.deps.clock());
        }
      });
      return;
    }
    const step = this.advance(alias, type, outcome, startedAt, resumes, false);
    // The last node of the workflow ends the run in its own commit (no second transaction to say so).
    const end = outcome.end ?? (this.run.cursor === null ? 'passed' : undefined);
    if (end) {
      await this.commit(trx, { status: end, cursor: null, state: this.run.state, ...(outcome.runOutputs ? { outputs: outcome.runOutputs } : {}) }, step, resumes, () => this.lease.finish(trx));
      return;
    }
    await this.commit(trx, { status: 'running', cursor: this.run.cursor, state: this.run.state }, step, resumes);
  }

  /** A node failed: a failure that may pass is tried again by the job; any other ends the run as failed, with the error on the step. */
  private async failed(alias: string, type: NodeType, error: unknown, startedAt: number, resumes: boolean): Promise<void> {
    if (error instanceof RetryLater || error instanceof RunEnded) throw error;
    this.deps.log.warn({ runId: this.run.id, node: alias, err: error }, 'workflow step failed');
    const message = messageOf(error);
    const step: StepRecord = { nodeAlias: alias, nodeType: type.type, status: 'failed', error: message, startedAt };
    await this.commit(this.deps.db, { status: 'failed', cursor: alias, state: this.run.state, error: `${alias}: ${message}` }, step, resumes, (trx) => this.lease.finish(trx));
  }

  /** A waiting node woken by its timer or a signal. */
  private async resume(wake: NodeWake): Promise<void> {
    const alias = this.run.cursor!;
    const { type, config } = this.nodeAt(alias);
    if (!type.resume) throw new Error(`node "${alias}" (${type.type}) waits but cannot be resumed`);
    this.run.status = 'running';
    const startedAt = this.deps.clock();
    if (type.effects === 'database') {
      await this.runInside(alias, type, config, startedAt, wake);
      return;
    }
    let outcome: NodeOutcome;
    try {
      outcome = await type.resume(config as never, wake, await this.contextIn(this.deps.db, alias, true));
    } catch (error) {
      await this.failed(alias, type, error, startedAt, true);
      return;
    }
    await this.settle(alias, type, outcome, startedAt, true);
  }
}

/**
 * Runs one job of a run: starts it, or resumes it after its timer or a signal. A job whose wake no
 * longer matches the run (the to-do was decided before the deadline fired; the run ended) is dropped.
 */
export async function runJob(deps: RunnerDeps, job: ClaimedJob, lease: Lease): Promise<void> {
  const payload = job.payload as RunJobPayload;
  const run = await readRun(deps.db, payload.runId);
  if (!run || ENDED.has(run.status)) return;
  const loaded = await loadVersion(deps.db, run.workflowId, run.version);
  let wake: NodeWake | null = null;
  const waitingAt = payload.signal ?? payload.timer;
  if (waitingAt) {
    if (run.status !== 'waiting' || run.cursor !== waitingAt.nodeAlias || run.stepCount !== waitingAt.seq) return;
    const state = await readWaitState(deps.db, run.id, run.stepCount);
    wake = payload.signal ? { kind: 'signal', state, signal: payload.signal.data } : { kind: 'timer', state };
  } else if (run.status === 'waiting') {
    return;
  }
  try {
    await new RunWalk(deps, run, loaded, lease, job).walk(wake);
  } catch (error) {
    // Ended by a person while this step ran: nothing of the step is kept, and the job is done.
    if (!(error instanceof RunEnded)) throw error;
  }
}

/** The job handler of workflow runs; a run whose job failed every attempt is marked failed. */
export function workflowRunHandler(deps: RunnerDeps): JobHandler {
  return {
    kind: RUN_JOB,
    run: (job, lease) => runJob(deps, job, lease),
    async giveUp(job, error) {
      const { runId } = job.payload as RunJobPayload;
      await inTransaction(deps.db, async (trx) => {
        const result = await trx
          .updateTable('workflow_runs')
          .set({ status: 'failed', error: `gave up after ${job.maxAttempts} attempts: ${messageOf(error)}`, ended_at: deps.clock(), updated_at: deps.clock() })
          .where('id', '=', runId)
          .where('status', 'not in', [...ENDED])
          .executeTakeFirst();
        const run = Number(result.numUpdatedRows) > 0 ? await readRun(trx, runId) : null;
        if (run) await signalParent(trx, run, 'failed', undefined, deps.clock());
      });
    },
  };
}

/**
 * A sub-process's run that ended tells the parent run waiting for it (`sub_process` with `wait`),
 * in the transaction that ends it: `{runId, status, outputs}`. Every path that ends a run calls it.
 */
export async function signalParent(trx: Executor, run: RunRow, status: RunStatus, outputs: unknown, now: number): Promise<void> {
  const parent = parentOf(run.trigger);
  if (parent) await signalRun(trx, parent.runId, parent.nodeAlias, parent.seq, { runId: run.id, status, outputs: outputs ?? null }, now);
}

/**
 * Wakes a waiting run with a signal (a to-do decided), in the caller's transaction: the run goes on
 * after it commits. `seq` is the waiting step's number, so that a late signal for an earlier wait
 * is dropped.
 * @example await signalRun(trx, run.id, 'approve_1', run.stepCount, { decision: 'approved' }, now)
 */
export async function signalRun(trx: Executor, runId: string, nodeAlias: string, seq: number, data: Record<string, unknown>, now: number): Promise<void> {
  const payload: RunJobPayload = { runId, signal: { nodeAlias, seq, data } };
  await enqueueJobs(trx, [{ kind: RUN_JOB, payload }], now);
  onCommit(trx, announceJobs);
}
