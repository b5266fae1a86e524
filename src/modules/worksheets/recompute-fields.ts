import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { propagateChanges } from '../records/computed/propagate.js';
import type { ComputeTime } from '../records/computed/related-values.js';
import * as repository from './repository.js';
import { rowTableName } from './worksheet-schema.js';

/**
 * Computes fields again for records of a worksheet (by default every one, those in the recycle bin
 * too, so that a restore shows current values), and whatever reads them elsewhere, inside the given
 * transaction, on the application's schemas as they are in it. The structure change runs it whole;
 * the background recompute a batch of records at a time.
 */
export async function recomputeFields(trx: Executor, dialect: SqlDialect, appId: string, worksheetId: string, fieldIds: Set<string>, time: ComputeTime, rowIds?: string[]): Promise<void> {
  const world = new Map((await repository.schemasOfApp(trx, appId)).map((schema) => [schema.id, schema]));
  const ids = rowIds ?? (await sql<{ id: string }>`SELECT id FROM ${sql.table(rowTableName(worksheetId))}`.execute(trx)).rows.map((r) => r.id);
  await propagateChanges(trx, dialect, world, [{ worksheetId, rowIds: ids, fields: new Set(), recompute: fieldIds }], time);
}
