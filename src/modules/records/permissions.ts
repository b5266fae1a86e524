import { dataScopeOf, reachesEveryRow, requireFieldWrite, rowsFor, worksheetGrant } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { WorksheetSchema } from '../worksheets/index.js';
import { callerScope } from './filter-scope.js';
import { visibleLiveIds, type RowState } from './repository.js';

/**
 * The record paths' questions to the policy (`access/`) that need the data: which of some records a
 * right reaches, and whether the fields a write names may be written.
 */

/** Refuses a write naming a field the caller may not write (430014 naming it). */
export function requireWritableFields(ctx: ServiceContext, schema: WorksheetSchema, values: Map<string, unknown>): void {
  const grant = worksheetGrant(ctx.actor, schema.id);
  if (grant.hiddenFields.size === 0 && grant.readOnlyFields.size === 0) return;
  for (const id of values.keys()) requireFieldWrite(ctx.actor, schema.id, schema.byKey.get(id) ?? { id, name: id });
}

/**
 * The ids among `ids` that `right` reaches for the caller, in the given state (live, in the bin, or
 * either). Free for callers whose right reaches every record; one statement otherwise.
 */
export async function reachableIds(ctx: ServiceContext, schema: WorksheetSchema, ids: string[], right: 'read' | 'edit' | 'delete', state: RowState | 'any'): Promise<string[]> {
  if (reachesEveryRow(ctx.actor, schema.id, right)) return ids;
  const reached = await visibleLiveIds(ctx.db, schema.table, ids, rowsFor(ctx.actor, callerScope(ctx, schema), right), state);
  return ids.filter((id) => reached.has(id));
}

/**
 * Refuses a change of one record the right does not reach: 10005 when the caller may read it (they
 * see it, but may not change it), 10007 when they may not (a record out of reach does not exist for them).
 */
export async function requireReachable(ctx: ServiceContext, schema: WorksheetSchema, rowId: string, right: 'edit' | 'delete', state: RowState | 'any'): Promise<void> {
  if ((await reachableIds(ctx, schema, [rowId], right, state)).length === 1) return;
  const readable = dataScopeOf(ctx.actor, schema.id, 'read') !== 'none' && (await reachableIds(ctx, schema, [rowId], 'read', state)).length === 1;
  if (readable) throw AppError.permissionDenied(`you may not ${right} the record "${rowId}"`);
  throw AppError.notFound(`record "${rowId}" does not exist or was deleted`);
}
