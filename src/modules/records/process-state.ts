import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { PROCESS_COLUMNS, PROCESS_COLUMN_TYPES, type ProcessColumnKey, type ProcessStatePatch } from '../../shared/process-fields.js';
import { rowTableName } from '../worksheets/worksheet-schema.js';
import { noteRowChanges } from './row-counts.js';

/**
 * Sets a record's process fields (`shared/process-fields.ts`) in the caller's transaction: the
 * workflow runner calls it in the transaction of each step that starts, waits or ends a run, and
 * nodes that assign people (approvals, fill-ins) call it for `nodeAssignees` in their step's. One
 * UPDATE of the record; keys absent from `patch` stay as they are. It is not a record write (no log
 * entry, `_updatedAt` unchanged, no workflow triggered), but it counts as a change of the
 * worksheet's records, so that kept filtered totals (`filtered-totals.ts`) are counted afresh. A
 * record (or worksheet) deleted for good meanwhile is no error: there is nothing left to show.
 * @example await noteProcessState(trx, dialect, worksheetId, rowId, { nodeAssignees: ['acc-1', 'acc-2'], dueAt: deadline })
 */
export async function noteProcessState(trx: Executor, dialect: SqlDialect, worksheetId: string, rowId: string, patch: ProcessStatePatch): Promise<void> {
  const keys = (Object.keys(patch) as ProcessColumnKey[]).filter((key) => patch[key] !== undefined);
  if (keys.length === 0) return;
  const worksheet = await trx.selectFrom('worksheets').select('id').where('id', '=', worksheetId).executeTakeFirst();
  if (!worksheet) return;
  const assignments = keys.map((key) => {
    const value = key === 'nodeAssignees' && patch.nodeAssignees!.length === 0 ? null : patch[key];
    return sql`${sql.id(PROCESS_COLUMNS[key])} = ${dialect.encode(PROCESS_COLUMN_TYPES[key], value)}`;
  });
  const result = await sql`UPDATE ${sql.table(rowTableName(worksheetId))} SET ${sql.join(assignments)} WHERE id = ${rowId}`.execute(trx);
  if (Number(result.numAffectedRows ?? 0) > 0) await noteRowChanges(trx, dialect, worksheetId, 0);
}
