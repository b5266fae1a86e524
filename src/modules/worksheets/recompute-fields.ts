import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { propagateChanges } from '../records/computed/propagate.js';
import type { ComputeTime } from '../records/computed/related-values.js';
import * as repository from './repository.js';
import { rowTableName } from './worksheet-schema.js';

/**
 * Computes fields again for every record of a worksheet (those in the recycle bin too, so that a
 * restore shows current values), and whatever reads them elsewhere, inside the structure change's
 * transaction, on the application's schemas as the change leaves them.
 */
export async function recomputeFields(trx: Executor, dialect: SqlDialect, appId: string, worksheetId: string, fieldIds: Set<string>, time: ComputeTime): Promise<void> {
  const world = new Map((await repository.schemasOfApp(trx, appId)).map((schema) => [schema.id, schema]));
  const rows = await sql<{ id: string }>`SELECT id FROM ${sql.table(rowTableName(worksheetId))}`.execute(trx);
  await propagateChanges(trx, dialect, world, [{ worksheetId, rowIds: rows.rows.map((r) => r.id), fields: new Set(), recompute: fieldIds }], time);
}
