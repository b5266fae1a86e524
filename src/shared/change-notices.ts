/**
 * How the caches of one process learn that something they hold was changed, here or in another
 * process of the same server (`HTTP_PROCESSES` > 1).
 *
 * Every per-process cache of structure or rights (worksheet schemas, views, app keys, people's
 * standing, workflow triggers, indexed worksheets) remembers the epoch it read an entry in and
 * trusts the entry only while the epoch is unchanged. A change bumps the epoch here and is sent to
 * the other processes, which bump theirs; the sender's response waits until they have
 * (`noticesInFlight`), so a client that changes a field and then writes through another connection,
 * served by another process, is never answered from the old schema. Changes are rare (schema,
 * roles, keys, workflows), so one epoch for all caches costs a few extra reads after each, and
 * nothing on the paths that change only records.
 *
 * Without a link to other processes (one process, or processes that share only a PostgreSQL
 * database) the caches' time limits bound what another process can miss, as before.
 */

let epoch = 0;
let publish: ((notice: ProcessNotice) => Promise<void>) | undefined;
const inFlight = new Set<Promise<void>>();
let changedQueued = false;

/**
 * What another process of the server is told: `changed`, drop what caches hold (the sender waits
 * until every process has it); `jobs`, jobs were committed (for the process whose workers run
 * them); `runEnded`, a run ended (for a hook call waiting on it there).
 */
export type ProcessNotice = { kind: 'changed' } | { kind: 'jobs' } | { kind: 'runEnded'; runId: string };

/** The epoch caches compare against: any change, here or elsewhere, since an entry was read makes it stale. */
export function changeEpoch(): number {
  return epoch;
}

/**
 * Notes a change of what caches hold (after its transaction committed) and tells the other
 * processes. Safe to call where nothing is cached: it costs a cache miss per process.
 */
export function noteChange(): void {
  epoch++;
  // One structure change drops several entries in a row: one notice for them all.
  if (!publish || changedQueued) return;
  changedQueued = true;
  const delivered = new Promise<void>((resolve) => {
    queueMicrotask(() => {
      changedQueued = false;
      if (publish) publish({ kind: 'changed' }).then(resolve, resolve);
      else resolve();
    });
  });
  inFlight.add(delivered);
  void delivered.finally(() => inFlight.delete(delivered));
}

/** Tells the other processes of the server something nobody waits for (`jobs`, `runEnded`). */
export function tellOtherProcesses(notice: ProcessNotice): void {
  publish?.(notice).catch(() => undefined);
}

/** A change another process made: caches here drop what they hold. */
export function receiveChange(): void {
  epoch++;
}

/**
 * Connects this process to the others (`processes/worker-link.ts`): `deliver` resolves once every
 * other process has the notice (or gave up waiting). Undefined disconnects.
 */
export function linkProcesses(deliver: ((notice: ProcessNotice) => Promise<void>) | undefined): void {
  publish = deliver;
}

/** Resolves when every notice sent so far has reached the other processes; undefined when none is on its way. */
export function noticesInFlight(): Promise<unknown> | undefined {
  return inFlight.size === 0 ? undefined : Promise.all(inFlight);
}
