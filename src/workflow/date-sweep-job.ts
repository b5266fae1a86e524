import { systemActor } from '../access/actors.js';
import { inTransaction, onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs, type ClaimedJob, type JobHandler, type Lease } from '../jobs/index.js';
import { listRecords } from '../modules/records/index.js';
import { loadSchema } from '../modules/worksheets/index.js';
import { AppError } from '../shared/app-error.js';
import { newRowId } from '../shared/ids.js';
import type { ServiceContext } from '../shared/service-context.js';
import { firingsIn, joinWindows, periodsBack, periodWindows, repeatMonths } from './date-trigger-repeats.js';
import { valueWindow, type DateTriggerConfig, type ValueWindow } from './date-trigger-times.js';
import { RUN_JOB, TriggerType } from './definition.js';
import { createKeyedRuns, type NewRun } from './run-store.js';
import { WORKFLOW_USER, type RunnerDeps } from './runner.js';
import { DATE_SWEEP_JOB, DATE_SWEEP_MS, enqueueSweep, handOver, planTimeTrigger, publishedWorkflow, readTimeTrigger, replanAfterFailure, type PublishedWorkflow } from './time-triggers.js';

/** Records read (and runs made, in one transaction) per page of a sweep. */
const PAGE = 500;
/** Past periods a repeating trigger reads with one query (one range each, joined by OR). */
const PERIODS_PER_QUERY = 100;

interface Condition {
  type: 'condition';
  field: string;
  operator: string;
  value: string;
}

/** One sweep of (`after`, `upTo`]: the workflow, its trigger, and the record service it reads through. */
interface Sweep {
  deps: RunnerDeps;
  lease: Lease;
  published: PublishedWorkflow;
  config: DateTriggerConfig;
  reader: ServiceContext;
  after: number;
  upTo: number;
}

/** The bounds of a window's values on the date field: one indexed range. */
function boundsOf(fieldId: string, window: ValueWindow): { lower: Condition; upper: Condition } {
  const at = (operator: string, value: string): Condition => ({ type: 'condition', field: fieldId, operator, value });
  return 'days' in window
    ? { lower: at('ge', window.days.from), upper: at('le', window.days.to) }
    : { lower: at('gt', new Date(window.instants.after).toISOString()), upper: at('le', new Date(window.instants.upTo).toISOString()) };
}

/** The list filter selecting the values of some windows: one range, or a range per window joined by OR. */
function filterOf(fieldId: string, windows: readonly ValueWindow[]) {
  const ranges = windows.map((window) => {
    const { lower, upper } = boundsOf(fieldId, window);
    return { type: 'group', logic: 'AND', children: [lower, upper] };
  });
  return ranges.length === 1 ? ranges[0] : { type: 'group', logic: 'OR', children: ranges };
}

/** How a sweep reads records: through the record service as the workflow's pseudo-user, reading only. */
async function readerFor(deps: RunnerDeps, published: PublishedWorkflow): Promise<ServiceContext> {
  const actor = systemActor({ job: `workflow:${published.workflowId}`, appId: published.appId, organizationId: await deps.organizationOf(published.appId), accountId: WORKFLOW_USER, writes: false });
  return deps.contextFor(actor, deps.db, { type: 2, triggerWorkflow: false });
}

/**
 * Starts the runs of the records in `windows` whose firings are in the sweep's window, page by
 * page, each page's runs committed with the job's fence. A page redone after a crash makes no
 * second run (`date:<rowId>:<firing>` is unique per workflow).
 */
async function startRuns(sweep: Sweep, windows: readonly ValueWindow[]): Promise<void> {
  const { deps, config, published } = sweep;
  const query = { useFieldIdAsKey: true, fields: [config.dateFieldId], filter: filterOf(config.dateFieldId, windows), sorts: [{ field: config.dateFieldId, isAsc: true }], pageSize: PAGE, includeTotalCount: false };
  for (let pageIndex = 1; ; pageIndex++) {
    const rows = (await listRecords(sweep.reader, config.worksheetId, { ...query, pageIndex })).rows as Array<Record<string, unknown>>;
    const runs: NewRun[] = [];
    for (const row of rows) {
      const rowId = String(row.rowid ?? row.id);
      for (const firesAt of firingsIn(config, row[config.dateFieldId], deps.timeZone, sweep.after, sweep.upTo)) {
        runs.push({ workflowId: published.workflowId, version: published.version, appId: published.appId, worksheetId: config.worksheetId, rowId, trigger: { kind: 'date_field', dateFieldId: config.dateFieldId, firedAt: new Date(firesAt).toISOString() }, initiatorId: WORKFLOW_USER, chainDepth: 0, triggerKey: `date:${rowId}:${firesAt}` });
      }
    }
    if (runs.length > 0) {
      await inTransaction(deps.db, async (trx) => {
        await sweep.lease.fence(trx);
        const ids = await createKeyedRuns(trx, runs, deps.clock());
        await enqueueJobs(trx, ids.map((runId) => ({ kind: RUN_JOB, payload: { runId } })), deps.clock());
        onCommit(trx, announceJobs);
      });
    }
    if (rows.length < PAGE) return;
  }
}

/** The earliest value of the date field meeting `conditions` (one index seek), or null. */
async function firstValue(sweep: Sweep, conditions: Condition[]): Promise<string | null> {
  const fieldId = sweep.config.dateFieldId;
  const query = { useFieldIdAsKey: true, fields: [fieldId], filter: { type: 'group', logic: 'AND', children: conditions }, sorts: [{ field: fieldId, isAsc: true }], pageSize: 1, pageIndex: 1, includeTotalCount: false };
  const value = ((await listRecords(sweep.reader, sweep.config.worksheetId, query)).rows as Array<Record<string, unknown>>)[0]?.[fieldId];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * A repeating trigger's records: the values that fire in the window lie in the base window moved
 * back whole periods (`periodWindows`), back to the earliest value there is. The periods are read
 * `PERIODS_PER_QUERY` at a time, oldest first; before each batch one index seek finds the next
 * value, so periods without values (a lone date decades back) cost no query of their own. A sweep
 * therefore costs a few range reads per hundred periods the values span, never a scan of the
 * worksheet.
 */
async function sweepRepeats(sweep: Sweep, base: ValueWindow, months: number): Promise<void> {
  const { dateFieldId } = sweep.config;
  const zone = sweep.deps.timeZone;
  const { upper } = boundsOf(dateFieldId, base);
  let next = await firstValue(sweep, [upper]);
  while (next !== null) {
    const top = periodsBack(base, next, months, zone);
    const last = Math.max(0, top - PERIODS_PER_QUERY + 1);
    const windows: ValueWindow[] = [];
    for (let k = top; k >= last; k--) windows.push(...periodWindows(base, k * months, zone));
    const joined = joinWindows(windows);
    await startRuns(sweep, joined);
    if (last === 0) return;
    next = await firstValue(sweep, [{ ...boundsOf(dateFieldId, joined.at(-1)!).upper, operator: 'gt' }, upper]);
  }
}

/** Starts the runs of records whose firing is in (`after`, `upTo`]: one indexed range query on the date field (one per batch of periods with `repeat`). */
async function sweepWindow(deps: RunnerDeps, lease: Lease, published: PublishedWorkflow, after: number, upTo: number): Promise<void> {
  const config = published.definition.trigger.config as unknown as DateTriggerConfig;
  const reader = await readerFor(deps, published);
  let kind: 'date' | 'datetime';
  try {
    const field = (await loadSchema(reader, config.worksheetId)).byKey.get(config.dateFieldId);
    if (field?.fieldType.valueKind !== 'date' && field?.fieldType.valueKind !== 'datetime') throw AppError.notFound(`the date field ${config.dateFieldId} is gone or holds no date`);
    kind = field.fieldType.valueKind;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    deps.log.warn({ workflowId: published.workflowId, err: error }, 'a date-field trigger has no date field to sweep');
    return;
  }
  const base = valueWindow(config, kind, after, upTo, deps.timeZone);
  if (!base) return;
  const sweep: Sweep = { deps, lease, published, config, reader, after, upTo };
  const months = repeatMonths(config);
  if (months === null) await startRuns(sweep, [base]);
  else await sweepRepeats(sweep, base, months);
}

/**
 * One sweep of a date-field trigger: the records whose firing fell in (watermark, now] get their
 * runs, then the watermark moves to now and the next sweep is queued, in one transaction fenced on
 * the job and on the workflow's time trigger. A record whose date is changed later is seen by the
 * sweep of the window its new firing falls in; one changed to a firing already swept does not fire.
 * The watermark is a time of firings, not of values: with `repeat` it means the same (every
 * occurrence firing up to it has had its chance), so a repeating value needs no state of its own.
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
