import { inTransaction, onCommit } from '../db/transaction.js';
import { announceJobs, enqueueJobs, type ClaimedJob, type JobHandler, type Lease } from '../jobs/index.js';
import { newRowId } from '../shared/ids.js';
import { RUN_JOB, TriggerType } from './definition.js';
import { createKeyedRuns } from './run-store.js';
import { WORKFLOW_USER, type RunnerDeps } from './runner.js';
import { isScheduleTime, nextScheduleTime, type ScheduleConfig } from './schedule-times.js';
import { enqueueFiring, handOver, planTimeTrigger, publishedWorkflow, replanAfterFailure, SCHEDULE_JOB, type ScheduleJobPayload } from './time-triggers.js';

/**
 * Fires a schedule once: in one transaction, fenced on the job and on the workflow's time trigger
 * (a job replaced by a later publish fires nothing), it starts the run of this firing (one per
 * firing: `schedule:<fireAt>` is unique per workflow), queues it, and queues the next firing. A
 * firing that comes late (the workers were down) runs once, and the next is the first after now:
 * missed firings are not made up.
 */
async function fire(deps: RunnerDeps, job: ClaimedJob, lease: Lease): Promise<void> {
  const { workflowId, fireAt } = job.payload as ScheduleJobPayload;
  await inTransaction(deps.db, async (trx) => {
    await lease.fence(trx);
    const now = deps.clock();
    const nextJobId = newRowId();
    if (!(await handOver(trx, workflowId, job.id, nextJobId, now))) {
      await lease.finish(trx);
      return;
    }
    const published = await publishedWorkflow(trx, workflowId);
    const config = published?.definition.trigger.config as ScheduleConfig | undefined;
    if (!published || published.definition.trigger.type !== TriggerType.schedule || !isScheduleTime(config!, fireAt, deps.timeZone)) {
      // Not a firing of what is published now (it was closed or changed without a re-plan): plan afresh.
      await planTimeTrigger(trx, workflowId, now, deps.timeZone);
      await lease.finish(trx);
      return;
    }
    const [runId] = await createKeyedRuns(
      trx,
      [{ workflowId, version: published.version, appId: published.appId, worksheetId: null, rowId: null, trigger: { kind: 'schedule', firedAt: new Date(fireAt).toISOString() }, initiatorId: WORKFLOW_USER, chainDepth: 0, triggerKey: `schedule:${fireAt}` }],
      now,
    );
    if (runId) await enqueueJobs(trx, [{ kind: RUN_JOB, payload: { runId } }], now);
    const next = nextScheduleTime(config!, Math.max(fireAt, now), deps.timeZone);
    if (next === null) await handOver(trx, workflowId, nextJobId, null, now);
    else await enqueueFiring(trx, nextJobId, workflowId, next, now);
    await lease.finish(trx);
    onCommit(trx, announceJobs);
  });
}

/** The job handler of schedule firings. */
export function scheduleJobHandler(deps: RunnerDeps): JobHandler {
  return { kind: SCHEDULE_JOB, run: (job, lease) => fire(deps, job, lease), giveUp: (job) => replanAfterFailure(deps.db, job, deps.clock(), deps.timeZone) };
}
