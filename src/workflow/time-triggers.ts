import type { Executor } from '../db/connection.js';
import { inTransaction, onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs, type ClaimedJob } from '../jobs/index.js';
import { newRowId } from '../shared/ids.js';
import { TriggerType, type WorkflowDefinition } from './definition.js';
import { nextScheduleTime, type ScheduleConfig } from './schedule-times.js';

/**
 * Time triggers: a schedule (type 5) and a date field (type 6) are carried by durable jobs, one
 * chain per published workflow. A schedule's job is due at its next firing; running, it starts the
 * run and queues the firing after. A date field's job sweeps every `DATE_SWEEP_MS` the records
 * whose firing fell since the last sweep. `workflow_time_triggers.job_id` names the job that
 * carries a workflow now: publishing again or closing replaces it (`planTimeTrigger`), and a job
 * that finds itself replaced ends without firing, so that two chains never run for one workflow.
 */

/** The job kind of a schedule's next firing; payload `{workflowId, fireAt}`. */
export const SCHEDULE_JOB = 'workflow.schedule';
/** The job kind of a date-field trigger's sweep; payload `{workflowId}`. */
export const DATE_SWEEP_JOB = 'workflow.date-sweep';
/** How often a date-field trigger's records are swept: a record fires at most this late (plus the worker's poll). */
export const DATE_SWEEP_MS = 60_000;

export interface ScheduleJobPayload {
  workflowId: string;
  fireAt: number;
}

/** A workflow's published version, when it is published. */
export interface PublishedWorkflow {
  workflowId: string;
  appId: string;
  version: number;
  definition: WorkflowDefinition;
}

/** The published version of a workflow that is on (status published), or null. */
export async function publishedWorkflow(db: Executor, workflowId: string): Promise<PublishedWorkflow | null> {
  const row = await db
    .selectFrom('workflows as w')
    .innerJoin('workflow_versions as v', (join) => join.onRef('v.workflow_id', '=', 'w.id').onRef('v.version', '=', 'w.published_version'))
    .select(['w.id', 'w.app_id', 'w.status', 'v.version', 'v.definition'])
    .where('w.id', '=', workflowId)
    .executeTakeFirst();
  if (!row || row.status !== 'published') return null;
  return { workflowId: row.id, appId: row.app_id, version: Number(row.version), definition: JSON.parse(row.definition) as WorkflowDefinition };
}

/** The job that carries a workflow's time trigger, and a date field's watermark. */
export async function readTimeTrigger(db: Executor, workflowId: string): Promise<{ jobId: string; sweptUntil: number | null } | null> {
  const row = await db.selectFrom('workflow_time_triggers').select(['job_id', 'swept_until']).where('workflow_id', '=', workflowId).executeTakeFirst();
  return row ? { jobId: row.job_id, sweptUntil: row.swept_until === null ? null : Number(row.swept_until) } : null;
}

/**
 * Hands a workflow's time trigger from the job `jobId` to `nextJobId` (null: it ends), with the
 * watermark when given, in the caller's transaction. False when `jobId` no longer carries it (it
 * was replaced): the caller must then fire nothing. The update locks the row, so a publish in
 * flight waits for it or replaces the chain after it.
 */
export async function handOver(trx: Executor, workflowId: string, jobId: string, nextJobId: string | null, now: number, sweptUntil?: number): Promise<boolean> {
  if (nextJobId === null) {
    const result = await trx.deleteFrom('workflow_time_triggers').where('workflow_id', '=', workflowId).where('job_id', '=', jobId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
  const result = await trx
    .updateTable('workflow_time_triggers')
    .set({ job_id: nextJobId, updated_at: now, ...(sweptUntil !== undefined ? { swept_until: sweptUntil } : {}) })
    .where('workflow_id', '=', workflowId)
    .where('job_id', '=', jobId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Queues a schedule's firing at `fireAt` as job `id`. */
export async function enqueueFiring(trx: Executor, id: string, workflowId: string, fireAt: number, now: number): Promise<void> {
  const payload: ScheduleJobPayload = { workflowId, fireAt };
  await enqueueJobs(trx, [{ id, kind: SCHEDULE_JOB, payload, runAt: fireAt }], now);
}

/** Queues a date-field trigger's next sweep as job `id`. */
export async function enqueueSweep(trx: Executor, id: string, workflowId: string, runAt: number, now: number): Promise<void> {
  await enqueueJobs(trx, [{ id, kind: DATE_SWEEP_JOB, payload: { workflowId }, runAt }], now);
}

async function dropTimeTrigger(trx: Executor, workflowId: string): Promise<void> {
  const current = await readTimeTrigger(trx, workflowId);
  if (!current) return;
  await trx.deleteFrom('workflow_time_triggers').where('workflow_id', '=', workflowId).execute();
  // A job already claimed is left to its worker: it finds itself replaced and fires nothing.
  await trx.deleteFrom('background_jobs').where('id', '=', current.jobId).where('status', '=', 'queued').execute();
}

/**
 * (Re)plans a workflow's time trigger after it is published or closed, in the caller's transaction
 * (the publish's): a published schedule gets a job at its next firing after `now`, a published date
 * field a sweep (its watermark kept while it stays published, else starting at `now`, so that closing
 * and publishing again does not fire what passed meanwhile); anything else loses its job. The
 * definitions module calls it after publish and close; `reconcileTimeTriggers` at start.
 * @example await planTimeTrigger(trx, workflowId, ctx.now(), ctx.timeZone)
 */
export async function planTimeTrigger(trx: Executor, workflowId: string, now: number, timeZone: string): Promise<void> {
  const published = await publishedWorkflow(trx, workflowId);
  const type = published?.definition.trigger.type;
  const next = type === TriggerType.schedule ? nextScheduleTime(published!.definition.trigger.config as ScheduleConfig, now, timeZone) : null;
  if (next === null && type !== TriggerType.dateField) {
    await dropTimeTrigger(trx, workflowId);
    return;
  }
  const current = await readTimeTrigger(trx, workflowId);
  const jobId = newRowId();
  const sweptUntil = type === TriggerType.dateField ? (current?.sweptUntil ?? now) : null;
  await trx
    .insertInto('workflow_time_triggers')
    .values({ workflow_id: workflowId, job_id: jobId, swept_until: sweptUntil, updated_at: now })
    .onConflict((oc) => oc.column('workflow_id').doUpdateSet({ job_id: jobId, swept_until: sweptUntil, updated_at: now }))
    .execute();
  if (current) await trx.deleteFrom('background_jobs').where('id', '=', current.jobId).where('status', '=', 'queued').execute();
  if (next !== null) await enqueueFiring(trx, jobId, workflowId, next, now);
  else await enqueueSweep(trx, jobId, workflowId, now + DATE_SWEEP_MS, now);
  onCommit(trx, announceJobs);
}

/**
 * Plans every published workflow with a time trigger that no queued or running job carries (a
 * chain lost to a job that failed every attempt, or workflows published before this code). Called
 * once when the server starts; safe to run in several processes at once.
 */
export async function reconcileTimeTriggers(db: Executor, now: number, timeZone: string): Promise<number> {
  const rows = await db
    .selectFrom('workflows as w')
    .innerJoin('workflow_versions as v', (join) => join.onRef('v.workflow_id', '=', 'w.id').onRef('v.version', '=', 'w.published_version'))
    .leftJoin('workflow_time_triggers as t', 't.workflow_id', 'w.id')
    .leftJoin('background_jobs as j', (join) => join.onRef('j.id', '=', 't.job_id').on('j.status', 'in', ['queued', 'running']))
    .select(['w.id', 'v.definition', 'j.id as job_id'])
    .where('w.status', '=', 'published')
    .execute();
  const lost = rows.filter((row) => row.job_id === null && [TriggerType.schedule, TriggerType.dateField].includes((JSON.parse(row.definition) as WorkflowDefinition).trigger.type as 5 | 6));
  for (const row of lost) await inTransaction(db, (trx) => planTimeTrigger(trx, row.id, now, timeZone));
  return lost.length;
}

/** After a time trigger's job failed every attempt: plans the trigger afresh (from now), unless another job carries it already. */
export async function replanAfterFailure(db: Executor, job: ClaimedJob, now: number, timeZone: string): Promise<void> {
  const { workflowId } = job.payload as { workflowId: string };
  await inTransaction(db, async (trx) => {
    const current = await readTimeTrigger(trx, workflowId);
    if (current?.jobId === job.id) await planTimeTrigger(trx, workflowId, now, timeZone);
  });
}
