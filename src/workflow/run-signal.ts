import { tellOtherProcesses } from '../shared/change-notices.js';

/**
 * A process-wide nudge that a run ended (its ending step committed in this process), so that a hook
 * call waiting for the run answers at once; it is passed on to the server's other processes
 * (`HTTP_PROCESSES` > 1), where the call may wait. Runs ended by separate processes
 * (`tabularium worker`) are found by polling; nothing depends on the nudge for correctness.
 */
const waiting = new Map<string, Set<() => void>>();

/** Tells the waiters of this process and of the server's other processes that `runId` ended. */
export function announceRunEnded(runId: string): void {
  tellOtherProcesses({ kind: 'runEnded', runId });
  wakeRunWaiters(runId);
}

/** Tells this process's waiters, and no other process, that `runId` ended (a nudge another process passed on). */
export function wakeRunWaiters(runId: string): void {
  const listeners = waiting.get(runId);
  if (!listeners) return;
  waiting.delete(runId);
  for (const listener of listeners) listener();
}

/** Calls `listener` once when `runId` ends in this process; returns the unsubscribe. */
export function onRunEnded(runId: string, listener: () => void): () => void {
  let listeners = waiting.get(runId);
  if (!listeners) waiting.set(runId, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && waiting.get(runId) === listeners) waiting.delete(runId);
  };
}
