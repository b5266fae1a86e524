/**
 * A process-wide nudge that jobs were committed, so that the workers of this process claim them at
 * once instead of at their next poll. Code that enqueues inside a transaction announces after the
 * commit (`onCommit`); workers of other processes find the jobs by polling. Nothing depends on the
 * nudge for correctness.
 */
const listeners = new Set<() => void>();

/** Tells this process's workers that jobs are due. */
export function announceJobs(): void {
  for (const listener of listeners) listener();
}

/** Subscribes a worker; returns the unsubscribe. */
export function onJobsAnnounced(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
