import { onCommit } from '../../db/transaction.js';
import { announceJobs, enqueueJobs } from '../../jobs/index.js';
import { systemActor } from '../../access/actors.js';
import { rowsFor } from '../../access/row-scope.js';
import { compileFilter } from '../../query/index.js';
import { worksheetListeners, type WorksheetListener } from '../../workflow/trigger-cache.js';
import { createRuns, type NewRun } from '../../workflow/run-store.js';
import { MAX_CHAIN_DEPTH, RUN_JOB } from '../../workflow/definition.js';
import { visibleLiveIds } from './repository.js';
import type { HookContext, RecordChange, RecordHook } from './writer.js';


function eventMatches(listener: WorksheetListener, change: RecordChange): boolean {
  const { event, triggerFields } = listener.trigger;
  if (change.kind === 'create') return event === 'create' || event === 'create_or_update';
  if (change.kind === 'delete') return event === 'delete';
  if (change.kind !== 'update' || (event !== 'update' && event !== 'create_or_update')) return false;
  const changed = [...(change.after?.keys() ?? []), ...(change.linked?.keys() ?? [])];
  if (changed.length === 0) return false;
  return !triggerFields || triggerFields.length === 0 || changed.some((id) => triggerFields.includes(id));
}

/** The matching changes whose record passes the trigger's filter, read in the write's transaction. */
async function passingFilter(listener: WorksheetListener, changes: RecordChange[], hook: HookContext): Promise<RecordChange[]> {
  if (listener.trigger.filter === undefined || listener.trigger.filter === null) return changes;
  const scope = { schema: hook.schema, dialect: hook.dialect, now: hook.now, timeZone: hook.timeZone, selfAccountId: hook.actorId };
  const actor = systemActor({ job: `workflow:${listener.workflowId}`, appId: listener.appId, organizationId: '', accountId: hook.actorId, writes: false });
  const predicate = rowsFor(actor, scope, 'read', compileFilter(scope, listener.trigger.filter, 'trigger.filter'));
  const passing = await visibleLiveIds(hook.trx, hook.schema.table, changes.map((c) => c.rowId), predicate, 'any');
  return changes.filter((c) => passing.has(c.rowId));
}

/**
 * The workflow outbox: for each published workflow listening to the worksheet, each change it
 * matches (event, trigger fields, filter) becomes a queued run and a job to run it, in the write's
 * transaction. Nothing runs before the write commits, and nothing a committed write triggered is
 * lost: the worker finds the job after a restart. Writes with `triggerWorkflow: false` and the
 * reverse side of relations (records reached, not written) trigger nothing.
 */
export const enqueueTriggeredRuns: RecordHook = async (changes, hook) => {
  if (changes.length === 0 || hook.reached) return;
  const source = changes[0].source;
  if (source.triggerWorkflow === false) return;
  const listeners = await worksheetListeners(hook.trx, hook.schema.id);
  if (listeners.length === 0) return;
  const depth = source.chainDepth ?? 0;
  const runs: NewRun[] = [];
  for (const listener of listeners) {
    const matching = changes.filter((c) => eventMatches(listener, c));
    if (matching.length === 0) continue;
    for (const change of await passingFilter(listener, matching, hook)) {
      runs.push({
        workflowId: listener.workflowId,
        version: listener.version,
        appId: listener.appId,
        worksheetId: change.worksheetId,
        rowId: change.rowId,
        trigger: { kind: 'worksheet', event: change.kind, changedFields: [...(change.after?.keys() ?? [])] },
        initiatorId: hook.actorId,
        chainDepth: depth,
        ...(depth >= MAX_CHAIN_DEPTH ? { refusedBecause: `not started: the chain of workflows triggering each other reached the limit of ${MAX_CHAIN_DEPTH}` } : {}),
      });
    }
  }
  if (runs.length === 0) return;
  const ids = await createRuns(hook.trx, runs, hook.now);
  const started = ids.filter((_, i) => !runs[i].refusedBecause);
  await enqueueJobs(hook.trx, started.map((runId) => ({ kind: RUN_JOB, payload: { runId } })), hook.now);
  if (started.length > 0) onCommit(hook.trx, announceJobs);
};
