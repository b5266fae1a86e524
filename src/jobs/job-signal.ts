import { tellOtherProcesses } from '../shared/change-notices.js';

/**
 * A process-wide nudge that jobs were committed, so that the workers of this process claim them at
 * once instead of at their next poll. Code that enqueues inside a transaction announces after the
 * commit (`onCommit`). A process that runs no workers passes the nudge to the server's other
 * processes (`HTTP_PROCESSES` > 1), where the workers are; workers of separate processes
 * (`tabularium worker`) find the jobs by polling. Nothing depends on the nudge for correctness.
 */
const listeners = new Set<() => void>();

/** Tells this process's workers that jobs are due; a process without workers tells the other processes of the server. */
export function announceJobs(): void {
  if (listeners.size === 0) tellOtherProcesses({ kind: 'jobs' });
  else wakeWorkers();
}

/** Tells this process's workers, and no other process, that jobs are due (a nudge another process passed on). */
export function wakeWorkers(): void {
  for (const listener of listeners) listener();
}

/** Subscribes a worker; returns the unsubscribe. */
export function onJobsAnnounced(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
