import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { inTransaction } from '../db/transaction.js';
import { enqueueJobs, LeaseLost, type ClaimedJob, type JobHandler, type Lease } from '../jobs/index.js';
import { noteProcessState } from '../modules/records/index.js';
import { systemActor } from '../access/actors.js';
import type { Actor } from '../shared/actor.js';
import type { ChangeSource } from '../shared/change-source.js';
import type { ServiceContext } from '../shared/service-context.js';
import type { CrashSwitch } from './crash-points.js';
import { RUN_JOB } from './definition.js';
import { RetryLater, type NodeContext, type NodeOutcome, type NodeType, type NodeWait, type NodeWake, type TodoPort } from './node-type.js';
import { nodeContext, type NodeServices } from './node-context.js';
import { nodeTypeOf } from './registry.js';
import { admitRun, AtCapacity, capacityRetryDelay, endRun } from './run-limits.js';
import { processPatch } from './run-process.js';
import { ENDED, readRun, readWaitState, recordSteps, RunEnded, RunMoved, type RunMove, type RunRow, type RunStatus, type StepRecord } from './run-store.js';
import type { RunTodosPort } from './run-todos.js';
import { signalParent } from './run-wake.js';
import { loadVersion, type LoadedVersion } from './versions.js';

/** What the runner needs from the server. */
export interface RunnerDeps {
  db: Executor;
  dialect: SqlDialect;
  clock: () => number;
  timeZone: string;
  log: FastifyBaseLogger;
  /** A service context acting as `actor` on `db` (a step's transaction, or the root connection), its writes marked with `origin`. */
  contextFor(actor: Actor, db: Executor, origin: ChangeSource): ServiceContext;
  /** The organization an application belongs to. */
  organizationOf(appId: string): Promise<string>;
  /** Fault injection for the crash-recovery tests (CRASH_AT); does nothing otherwise. */
  crash: CrashSwitch;
  /** The to-dos of one step (`modules/workflow-instances`), acting in the step's context. */
  todos(ctx: ServiceContext, step: NodeContext['run']): TodoPort;
  /** The to-dos of whole runs (`modules/workflow-instances`): closed when a run ends otherwise than by its steps. */
  runTodos: RunTodosPort;
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Errors by which the engine stops a walk, never a node's failure: another worker holds the job, another commit moved or ended the run (`RunEnded` is a `RunMoved`), the workflow is at its limit. */
function isEngineError(error: unknown): boolean {
  return error instanceof LeaseLost || error instanceof RunMoved || error instanceof AtCapacity;
}

/** What a commit records beside the run's move. */
interface CommitOptions {
  /** The step of this commit (after the kept ones); `resumes`: it updates the waiting step in place. */
  step?: StepRecord | null;
  resumes?: boolean;
  /** Whether the commit ends the job (the run ends or waits). */
  finishes?: boolean;
  /** More work in the commit's transaction (a timer's job, the concurrency check). */
  after?: (trx: Executor) => Promise<void>;
  /** The wait the run enters. */
  wait?: NodeWait;
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
  /** The run's status as stored (the in-memory run runs ahead of it between commits). */
  private stored: RunStatus;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly run: RunRow,
    private readonly loaded: LoadedVersion,
    private readonly lease: Lease,
    private readonly job: Pick<ClaimedJob, 'attempt' | 'maxAttempts'>,
  ) {
    this.stored = run.status;
  }

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
   * step's transaction when it is one): the run's first commit also sets its timeout; a run that
   * shows its process updates its record's process fields (`run-process.ts`); a run that fails or
   * aborts closes its pending to-dos; `after` runs last in the same transaction.
   */
  private async commit(db: Executor, move: RunMove, options: CommitOptions = {}): Promise<void> {
    const { step, resumes = false, after, wait, finishes = false } = options;
    const now = this.deps.clock();
    const before = { status: this.run.status, cursor: this.run.cursor, state: this.run.state, stepCount: this.run.stepCount, revision: this.run.revision };
    const timeoutSeconds = this.loaded.definition.limits?.timeoutSeconds ?? 0;
    if (this.stored === 'queued' && timeoutSeconds > 0) move = { ...move, timeoutAt: this.run.startedAt + timeoutSeconds * 1000 };
    try {
      await inTransaction(db, async (trx) => {
        // The job's end is fenced as the fence is: a commit that ends the job needs no fence besides.
        await (finishes ? this.lease.finish(trx) : this.lease.fence(trx));
        await recordSteps(trx, this.run, [...this.pending, ...(step ? [{ step, resumes }] : [])], move, now);
        await this.showProcess(trx, move.status, now, wait, resumes);
        // A run that ends by a failure (or aborts) may leave to-dos of its step open: nobody is to act on them now.
        if (move.status === 'failed' || move.status === 'aborted') await this.deps.runTodos.closePending(trx, this.run.id, now);
        if (ENDED.has(move.status)) await signalParent(trx, this.run, move.status, move.outputs, now);
        await after?.(trx);
        this.deps.crash('step-commit');
      });
    } catch (error) {
      // Rolled back: the run is where it was (recordStep moves the in-memory run as it writes).
      Object.assign(this.run, before);
      throw error;
    }
    this.pending.length = 0;
    this.stored = move.status;
    if (move.status === 'running') this.deps.crash('between-steps');
  }

  /** Keeps the record's process fields, for a workflow that shows its process. */
  private async showProcess(trx: Executor, after: RunStatus, now: number, wait: NodeWait | undefined, resumes: boolean): Promise<void> {
    if (!this.loaded.showsProcess || !this.run.worksheetId || !this.run.rowId) return;
    const { definition } = this.loaded;
    const patch = processPatch({ before: this.stored, after, processName: definition.name, initiatorId: this.run.initiatorId, startedAt: this.run.startedAt, now, wait, sameWait: resumes && after === 'waiting' });
    if (patch) await noteProcessState(trx, this.deps.dialect, this.run.worksheetId, this.run.rowId, patch);
  }

  /** Runs until the run ends or waits. */
  async walk(wake: NodeWake | null): Promise<void> {
    // Resolved before any step's transaction: inside one, a read on the root connection would wait
    // for that transaction for ever where the engine has a single connection (SQLite), as when a
    // run resumes after a restart at a writing step.
    await this.actorOf();
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
    const limit = this.loaded.definition.limits?.maxConcurrentRuns ?? 0;
    // A limited workflow's run starts in a commit of its own, which counts its workflow's running runs first.
    if (limit > 0) await this.commit(this.deps.db, { status: 'running', cursor: this.run.cursor, state: this.run.state }, { after: (trx) => admitRun(trx, this.deps.dialect, this.run.workflowId, this.run.id, limit) });
  }

  private nodeAt(alias: string): { type: NodeType; config: unknown } {
    const spec = this.loaded.graph.node(alias)!;
    return { type: nodeTypeOf(spec.type)!, config: spec.config };
  }

  private async step(): Promise<void> {
    const alias = this.run.cursor;
    if (alias === null) {
      await this.commit(this.deps.db, { status: 'passed', cursor: null, state: this.run.state }, { finishes: true });
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
      // The engine's own refusals (the lease or the run taken over) are no failure of the node.
      if (settled || isEngineError(error)) throw error;
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
      const after = async () => {
        if (until === undefined) return;
        const payload: RunJobPayload = { runId: this.run.id, timer: { nodeAlias: alias, seq } };
        await enqueueJobs(trx, [{ kind: RUN_JOB, payload, runAt: until }], this.deps.clock());
      };
      await this.commit(trx, { status: 'waiting', cursor: alias, state: this.run.state }, { step, resumes, finishes: true, after, wait: outcome.wait });
      return;
    }
    const step = this.advance(alias, type, outcome, startedAt, resumes, false);
    // The last node (or an ending one) ends the run in its own commit, with the job; an ending node may give the run's outputs.
    const end = outcome.end ?? (this.run.cursor === null ? 'passed' : null);
    if (end) {
      await this.commit(trx, { status: end, cursor: null, state: this.run.state, ...(outcome.runOutputs ? { outputs: outcome.runOutputs } : {}) }, { step, resumes, finishes: true });
      return;
    }
    await this.commit(trx, { status: 'running', cursor: this.run.cursor, state: this.run.state }, { step, resumes });
  }

  /** A node failed: a failure that may pass is tried again by the job; any other ends the run as failed, with the error on the step. */
  private async failed(alias: string, type: NodeType, error: unknown, startedAt: number, resumes: boolean): Promise<void> {
    if (error instanceof RetryLater || isEngineError(error)) throw error;
    this.deps.log.warn({ runId: this.run.id, node: alias, err: error }, 'workflow step failed');
    const message = messageOf(error);
    const step: StepRecord = { nodeAlias: alias, nodeType: type.type, status: 'failed', error: message, startedAt };
    await this.commit(this.deps.db, { status: 'failed', cursor: alias, state: this.run.state, error: `${alias}: ${message}` }, { step, resumes, finishes: true });
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
 * A run that ended meanwhile (`RunEnded`: a person ended it) ends the job with nothing of the step
 * kept; a run that moved on meanwhile (`RunMoved`) is read again at once; a run its workflow's limit keeps
 * queued (`AtCapacity`) is tried again about a second later. Neither counts as a failed attempt.
 */
export async function runJob(deps: RunnerDeps, job: ClaimedJob, lease: Lease): Promise<void> {
  try {
    await walkRun(deps, job, lease);
  } catch (error) {
    if (error instanceof RunMoved) await lease.postpone(deps.clock());
    else if (error instanceof AtCapacity) await lease.postpone(deps.clock() + capacityRetryDelay());
    else throw error;
  }
}

async function walkRun(deps: RunnerDeps, job: ClaimedJob, lease: Lease): Promise<void> {
  const payload = job.payload as RunJobPayload;
  const run = await readRun(deps.db, payload.runId);
  if (!run || ENDED.has(run.status)) return;
  if (run.status === 'queued') deps.crash('run-start');
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
      // endRun tells a waiting parent run, as every end does.
      await endRun(deps.db, deps, runId, 'failed', `gave up after ${job.maxAttempts} attempts: ${messageOf(error)}`, deps.clock());
    },
  };
}
