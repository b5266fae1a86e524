import { systemActor } from '../access/actors.js';
import { inTransaction, onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs, type ClaimedJob, type JobHandler, type Lease } from '../jobs/index.js';
import { listRecords } from '../modules/records/index.js';
import { loadSchema } from '../modules/worksheets/index.js';
import { AppError } from '../shared/app-error.js';
import { newRowId } from '../shared/ids.js';
import type { ServiceContext } from '../shared/service-context.js';
import { dateTriggerTime, valueWindow, type DateTriggerConfig, type ValueWindow } from './date-trigger-times.js';
import { RUN_JOB, TriggerType } from './definition.js';
import { createKeyedRuns, type NewRun } from './run-store.js';
import { WORKFLOW_USER, type RunnerDeps } from './runner.js';
import { DATE_SWEEP_JOB, DATE_SWEEP_MS, enqueueSweep, handOver, planTimeTrigger, publishedWorkflow, readTimeTrigger, replanAfterFailure, type PublishedWorkflow } from './time-triggers.js';

/** Records read (and runs made, in one transaction) per page of a sweep. */
const PAGE = 500;

/** The list filter selecting the values of a window on the date field (one indexed range). */
function filterOf(fieldId: string, window: ValueWindow) {
  const range =
    'days' in window
      ? [
          { type: 'condition', field: fieldId, operator: 'ge', value: window.days.from },
          { type: 'condition', field: fieldId, operator: 'le', value: window.days.to },
        ]
      : [
          { type: 'condition', field: fieldId, operator: 'gt', value: new Date(window.instants.after).toISOString() },
          { type: 'condition', field: fieldId, operator: 'le', value: new Date(window.instants.upTo).toISOString() },
        ];
  return { type: 'group', logic: 'AND', children: range };
}

/** How a sweep reads records: through the record service as the workflow's pseudo-user, reading only. */
async function readerFor(deps: RunnerDeps, published: PublishedWorkflow): Promise<ServiceContext> {
  const actor = systemActor({ job: `workflow:${published.workflowId}`, appId: published.appId, organizationId: await deps.organizationOf(published.appId), accountId: WORKFLOW_USER, writes: false });
  return deps.contextFor(actor, deps.db, { type: 2, triggerWorkflow: false });
}

/**
 * Starts the runs of records whose firing is in (`after`, `upTo`]: one indexed range query on the
 * date field, page by page, each page's runs committed with the job's fence. A page redone after a
 * crash makes no second run (`date:<rowId>:<firing>` is unique per workflow).
 */
async function sweepWindow(deps: RunnerDeps, lease: Lease, published: PublishedWorkflow, after: number, upTo: number): Promise<void> {
  const config = published.definition.trigger.config as unknown as DateTriggerConfig;
  const ctx = await readerFor(deps, published);
  let kind: 'date' | 'datetime';
  try {
    const field = (await loadSchema(ctx, config.worksheetId)).byKey.get(config.dateFieldId);
    if (field?.fieldType.valueKind !== 'date' && field?.fieldType.valueKind !== 'datetime') throw AppError.notFound(`the date field ${config.dateFieldId} is gone or holds no date`);
    kind = field.fieldType.valueKind;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    deps.log.warn({ workflowId: published.workflowId, err: error }, 'a date-field trigger has no date field to sweep');
    return;
  }
  const window = valueWindow(config, kind, after, upTo, deps.timeZone);
  if (!window) return;
  const query = { useFieldIdAsKey: true, fields: [config.dateFieldId], filter: filterOf(config.dateFieldId, window), sorts: [{ field: config.dateFieldId, isAsc: true }], pageSize: PAGE, includeTotalCount: false };
  for (let pageIndex = 1; ; pageIndex++) {
    const rows = (await listRecords(ctx, config.worksheetId, { ...query, pageIndex })).rows as Array<Record<string, unknown>>;
    const runs: NewRun[] = [];
    for (const row of rows) {
      const firesAt = dateTriggerTime(config, row[config.dateFieldId], deps.timeZone);
      if (firesAt === null || firesAt <= after || firesAt > upTo) continue;
      const rowId = String(row.rowid ?? row.id);
      runs.push({ workflowId: published.workflowId, version: published.version, appId: published.appId, worksheetId: config.worksheetId, rowId, trigger: { kind: 'date_field', dateFieldId: config.dateFieldId, firedAt: new Date(firesAt).toISOString() }, initiatorId: WORKFLOW_USER, chainDepth: 0, triggerKey: `date:${rowId}:${firesAt}` });
    }
    if (runs.length > 0) {
      await inTransaction(deps.db, async (trx) => {
        await lease.fence(trx);
        const ids = await createKeyedRuns(trx, runs, deps.clock());
        await enqueueJobs(trx, ids.map((runId) => ({ kind: RUN_JOB, payload: { runId } })), deps.clock());
        onCommit(trx, announceJobs);
      });
    }
    if (rows.length < PAGE) return;
  }
}

/**
 * One sweep of a date-field trigger: the records whose firing fell in (watermark, now] get their
 * runs, then the watermark moves to now and the next sweep is queued, in one transaction fenced on
 * the job and on the workflow's time trigger. A record whose date is changed later is seen by the
 * sweep of the window its new firing falls in; one changed to a firing already swept does not fire.
 */
async function sweep(deps: RunnerDeps, job: ClaimedJob, lease: Lease): Promise<void> {
  const { workflowId } = job.payload as { workflowId: string };
  const current = await readTimeTrigger(deps.db, workflowId);
  if (!current || current.jobId !== job.id) return;
  const now = deps.clock();
  const published = await publishedWorkflow(deps.db, workflowId);
  const isDateTrigger = published?.definition.trigger.type === TriggerType.dateField;
  const after = current.sweptUntil ?? now;
  if (published && isDateTrigger && now > after) await sweepWindow(deps, lease, published, after, now);
  await inTransaction(deps.db, async (trx) => {
    await lease.fence(trx);
    const nextJobId = newRowId();
    if (!isDateTrigger) await planTimeTrigger(trx, workflowId, now, deps.timeZone);
    else if (await handOver(trx, workflowId, job.id, nextJobId, now, Math.max(after, now))) await enqueueSweep(trx, nextJobId, workflowId, now + DATE_SWEEP_MS, now);
    await lease.finish(trx);
  });
}

/** The job handler of date-field sweeps. */
export function dateSweepHandler(deps: RunnerDeps): JobHandler {
  return { kind: DATE_SWEEP_JOB, run: (job, lease) => sweep(deps, job, lease), giveUp: (job) => replanAfterFailure(deps.db, job, deps.clock(), deps.timeZone) };
}
