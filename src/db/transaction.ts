import type { Executor } from './connection.js';
import type { SqlDialect } from './dialect/sql-dialect.js';

/**
 * Runs `work` in one transaction; when `db` already is one, joins it. A batch either applies
 * whole or not at all (house rule 6).
 * @example await inTransaction(ctx.db, (trx) => repository.insertRows(trx, rows));
 */
export async function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  let opened: Executor | undefined;
  const result = await db.transaction().execute((trx) => {
    opened = trx;
    return work(trx);
  });
  const callbacks = opened && committed.get(opened);
  if (callbacks) for (const callback of callbacks) callback();
  return result;
}

const committed = new WeakMap<Executor, Array<() => void>>();

/**
 * Calls `callback` once the transaction `trx` (opened by `inTransaction`) has committed; not at all
 * when it rolls back. For nudges that must not run before the data is visible (waking the job
 * worker); nothing may depend on it for correctness, since a transaction opened elsewhere never
 * calls it.
 * @example onCommit(trx, () => jobs.wake())
 */
export function onCommit(trx: Executor, callback: () => void): void {
  if (!trx.isTransaction) {
    callback();
    return;
  }
  const callbacks = committed.get(trx);
  if (callbacks) callbacks.push(callback);
  else committed.set(trx, [callback]);
}

/** How often a transaction the engine picked to give way is run again. */
const RETRIES = 3;

/**
 * Runs a transaction again when the engine aborted it to break a deadlock. A structure change can
 * meet a background CREATE INDEX CONCURRENTLY on the same table: each waits for the other, and
 * PostgreSQL aborts one. Run again, the change is newer than the build, which then no longer waits
 * for it. Only for work that is safe to repeat whole (it is: the aborted transaction wrote nothing).
 */
export async function inRetriedTransaction<T>(db: Executor, dialect: SqlDialect, work: (trx: Executor) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(db, work);
    } catch (error) {
      if (attempt >= RETRIES || db.isTransaction || dialect.classifyError(error).kind !== 'retry') throw error;
    }
  }
}
