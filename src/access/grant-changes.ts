/**
 * Bumped by every change that alters what people's grants hold: roles and their members, and the
 * views roles give rights through. Cached standings older than the change are read again at once in
 * this process; other processes read theirs again within their cache's time (5 s).
 */
let changes = 0;

/** How many grant changes this process has made; a standing read before the latest is stale. */
export function grantChanges(): number {
  return changes;
}

/** Notes a change of roles, their members or the views they name. */
export function noteGrantChange(): void {
  changes++;
}
