import type { Selectable } from 'kysely';
import type { Executor } from '../db/connection.js';
import type { MetaSchema } from '../db/schema.js';
import { executeCached } from '../db/sql-text-cache.js';
import { onCommit } from '../db/transaction.js';
import { newRowId } from '../shared/ids.js';
import { announceRunEnded } from './run-signal.js';

/**
 * The durable record of runs and their steps (`workflow_runs`, `workflow_steps`). A run's `cursor`
 * is the alias of the node it is at (null before the first), `state` the outputs of the nodes it
 * has passed, by alias; both change only in the transaction that commits a step. The statements
 * that run for every run have their SQL text built once (`executeCached`).
 */

/** Run statuses: queued (triggered, not started), running, waiting (on a to-do or a timer), and the ends. */
export type RunStatus = 'queued' | 'running' | 'waiting' | 'passed' | 'refused' | 'aborted' | 'failed';
export const ENDED: ReadonlySet<string> = new Set(['passed', 'refused', 'aborted', 'failed']);

/** A run as the runner reads it. */
export interface RunRow {
  id: string;
  workflowId: string;
  version: number;
  appId: string;
  status: RunStatus;
  worksheetId: string | null;
  rowId: string | null;
  trigger: Record<string, unknown>;
  initiatorId: string;
  chainDepth: number;
  cursor: string | null;
  state: Record<string, Record<string, unknown>>;
  stepCount: number;
  startedAt: number;
  /** The revision read: the commit that moves the run next names it (`RunMoved`). */
  revision: number;
}

/**
 * Thrown in a commit whose run moved on since it was read (another job of the run committed
 * first): the commit is rolled back, and the job reads the run again. The one guard of a run's
 * commits is its revision (`recordSteps`); `RunEnded` is the case where the run has ended.
 */
export class RunMoved extends Error {
  constructor(runId: string, message = `workflow run ${runId} moved on since it was read`) {
    super(message);
    this.name = 'RunMoved';
  }
}

/**
 * A `RunMoved` whose run has ended meanwhile (terminated or revoked by a person, timed out, given
 * up, or ended by another job): the commit is rolled back and the job ends, nothing to read again.
 */
export class RunEnded extends RunMoved {
  constructor(runId: string) {
    super(runId, `run ${runId} has ended meanwhile`);
    this.name = 'RunEnded';
  }
}

/** A run to create: triggered by a record write, a schedule, a hook call… */
export interface NewRun {
  workflowId: string;
  version: number;
  appId: string;
  worksheetId: string | null;
  rowId: string | null;
  trigger: Record<string, unknown>;
  initiatorId: string;
  chainDepth: number;
  /** A run that must not start (its chain is too deep): created ended, with the reason. */
  refusedBecause?: string;
  /** The firing it answers (time triggers): one run per key and workflow (`createKeyedRuns`). */
  triggerKey?: string;
}

function runRows(runs: NewRun[], now: number) {
  return runs.map((run) => ({
    id: newRowId(),
    workflow_id: run.workflowId,
    version: run.version,
    app_id: run.appId,
    status: run.refusedBecause ? 'failed' : 'queued',
    worksheet_id: run.worksheetId,
    row_id: run.rowId,
    trigger: JSON.stringify(run.trigger),
    initiator_id: run.initiatorId,
    chain_depth: run.chainDepth,
    cursor: null,
    state: '{}',
    outputs: null,
    error: run.refusedBecause ?? null,
    started_at: now,
    updated_at: now,
    ended_at: run.refusedBecause ? now : null,
    trigger_key: run.triggerKey ?? null,
  }));
}

/** Creates runs (in the caller's transaction); returns their ids in order. */
export async function createRuns(db: Executor, runs: NewRun[], now: number): Promise<string[]> {
  if (runs.length === 0) return [];
  const rows = runRows(runs, now);
  const parameters = rows.flatMap((r) => Object.values(r));
  await executeCached(db, `runs|create|${rows.length}`, () => db.insertInto('workflow_runs').values(rows), parameters);
  return rows.map((r) => r.id);
}

/**
 * Creates the runs of firings (each with a `triggerKey`) that have none yet, in the caller's
 * transaction; returns the ids of those it created, in order. A firing repeated (a sweep redone
 * after a crash, a second process) finds its run and creates nothing.
 * @example await createKeyedRuns(trx, [{ ...run, triggerKey: `schedule:${fireAt}` }], now)
 */
export async function createKeyedRuns(db: Executor, runs: NewRun[], now: number): Promise<string[]> {
  if (runs.length === 0) return [];
  const rows = runRows(runs, now);
  await db
    .insertInto('workflow_runs')
    .values(rows)
    .onConflict((oc) => oc.columns(['workflow_id', 'trigger_key']).doNothing())
    .execute();
  const created = await db.selectFrom('workflow_runs').select('id').where('id', 'in', rows.map((r) => r.id)).execute();
  const ids = new Set(created.map((r) => r.id));
  return rows.map((r) => r.id).filter((id) => ids.has(id));
}

export async function readRun(db: Executor, runId: string): Promise<RunRow | null> {
  const result = await executeCached<Selectable<MetaSchema['workflow_runs']>>(db, 'runs|read', () => db.selectFrom('workflow_runs').selectAll().where('id', '=', ''), [runId]);
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    workflowId: row.workflow_id,
    version: Number(row.version),
    appId: row.app_id,
    status: row.status as RunStatus,
    worksheetId: row.worksheet_id,
    rowId: row.row_id,
    trigger: JSON.parse(row.trigger) as Record<string, unknown>,
    initiatorId: row.initiator_id,
    chainDepth: Number(row.chain_depth),
    cursor: row.cursor,
    state: JSON.parse(row.state) as Record<string, Record<string, unknown>>,
    stepCount: Number(row.step_count),
    startedAt: Number(row.started_at),
    revision: Number(row.revision),
  };
}

/** A step to record with the run's move. */
export interface StepRecord {
  nodeAlias: string;
  nodeType: string;
  status: 'done' | 'waiting' | 'failed';
  input?: unknown;
  output?: unknown;
  exit?: string | null;
  error?: string | null;
  startedAt: number;
}

/** The run's new position and status after a step. */
export interface RunMove {
  status: RunStatus;
  cursor: string | null;
  state: Record<string, Record<string, unknown>>;
  outputs?: unknown;
  error?: string | null;
  /** When the sweep aborts the run if it has not ended (set when it starts). */
  timeoutAt?: number | null;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * Records steps and moves the run, in the caller's transaction (with the steps' record writes and
 * the job's fence). A step that `resumes` a waiting one updates it in place (its `seq` is the run's
 * last); the others are appended in order. Throws `RunMoved` when the run is no longer at the
 * revision read, `RunEnded` when it has ended since; a run that ends announces it after the commit.
 */
export async function recordSteps(db: Executor, run: RunRow, steps: Array<{ step: StepRecord; resumes: boolean }>, move: RunMove, now: number): Promise<void> {
  const appendedCount = steps.filter((s) => !s.resumes).length;
  const stepCount = run.stepCount + appendedCount;
  const ended = ENDED.has(move.status);
  // The run first: a commit whose run moved stops here, before writing steps (on PostgreSQL it
  // waits for the other commit's row lock, then finds the revision changed).
  const set: Record<string, unknown> = { status: move.status, cursor: move.cursor, state: JSON.stringify(move.state), step_count: stepCount, updated_at: now };
  if (move.outputs !== undefined) set.outputs = json(move.outputs);
  if (move.error !== undefined) set.error = move.error;
  if (ended) set.ended_at = now;
  if (move.timeoutAt !== undefined) set.timeout_at = move.timeoutAt;
  set.revision = run.revision + 1;
  const moved = await executeCached(db, `runs|move|${Object.keys(set).join(',')}`, () => db.updateTable('workflow_runs').set(set).where('id', '=', '').where('revision', '=', 0), [...Object.values(set), run.id, run.revision]);
  if (Number(moved.numAffectedRows ?? 0) !== 1) {
    // Which of the two: a run that ended meanwhile is not read again (its job is done).
    const current = await db.selectFrom('workflow_runs').select('status').where('id', '=', run.id).executeTakeFirst();
    throw !current || ENDED.has(current.status) ? new RunEnded(run.id) : new RunMoved(run.id);
  }
  let seq = run.stepCount;
  const appended: Array<Record<string, unknown>> = [];
  for (const { step, resumes } of steps) {
    if (resumes) {
      const resumed = { status: step.status, output: json(step.output), exit: step.exit ?? null, error: step.error ?? null, ended_at: step.status === 'waiting' ? null : now };
      await executeCached(db, 'steps|resume', () => db.updateTable('workflow_steps').set(resumed).where('run_id', '=', '').where('seq', '=', 0), [...Object.values(resumed), run.id, run.stepCount]);
      continue;
    }
    seq += 1;
    appended.push({
      id: newRowId(),
      run_id: run.id,
      seq,
      node_alias: step.nodeAlias,
      node_type: step.nodeType,
      status: step.status,
      input: json(step.input),
      output: json(step.output),
      exit: step.exit ?? null,
      error: step.error ?? null,
      started_at: step.startedAt,
      ended_at: step.status === 'waiting' ? null : now,
    });
  }
  if (appended.length > 0) {
    await executeCached(db, `steps|append|${appended.length}`, () => db.insertInto('workflow_steps').values(appended as never), appended.flatMap((row) => Object.values(row)));
  }
  if (ended) onCommit(db, () => announceRunEnded(run.id));
  run.revision += 1;
  run.status = move.status;
  run.cursor = move.cursor;
  run.state = move.state;
  run.stepCount = stepCount;
}

/** A published version's definition (JSON), or null. */
export async function readDefinition(db: Executor, workflowId: string, version: number): Promise<string | null> {
  const row = await db.selectFrom('workflow_versions').select('definition').where('workflow_id', '=', workflowId).where('version', '=', version).executeTakeFirst();
  return row?.definition ?? null;
}

/** What a waiting step keeps for its node's `resume`. */
export async function readWaitState(db: Executor, runId: string, seq: number): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('workflow_steps').select('output').where('run_id', '=', runId).where('seq', '=', seq).executeTakeFirst();
  const output = row?.output ? (JSON.parse(row.output) as { wait?: Record<string, unknown> }) : {};
  return output.wait ?? {};
}
