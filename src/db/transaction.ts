import type { Executor } from './connection.js';

/**
 * Runs `work` in one transaction; when `db` already is one, joins it. A batch either applies
 * whole or not at all (house rule 6).
 * @example await inTransaction(ctx.db, (trx) => repository.insertRows(trx, rows));
 */
export async function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  return db.transaction().execute(work);
}
