import { bothOf, compileFilter, eitherOf, EVERY_ROW, filterOfFieldsNow, NO_ROW, type FilterScope, type RowPredicate } from '../query/index.js';
import type { Actor } from '../shared/actor.js';
import type { DataScope, RowRight, ViewReach } from './grants.js';
import { keptRows } from './kept-reach.js';
import { forbidden, worksheetGrant } from './policy.js';
import { reachesEveryRecord } from './view-reach.js';

declare const scopedBrand: unique symbol;

/**
 * The rows a read may see: the caller's filter ANDed with the caller's data scope for the right
 * the read needs. Repository reads of records take one as a required argument, and only this file
 * makes them, so no read path can leave the permissions out by forgetting an argument.
 */
export type ScopedRows = RowPredicate & { readonly [scopedBrand]: true };

function scoped(predicate: RowPredicate): ScopedRows {
  return predicate as ScopedRows;
}

const SELF = ['user-self'];

/**
 * A data scope as a condition of the filter language, compiled by the same compiler as lists: own
 * is `_owner`; joined adds `_createdBy` and every member field naming the caller; subordinates adds
 * the records owned by the people of the departments the caller manages.
 */
function scopeFilter(actor: Actor, scope: FilterScope, reach: Exclude<DataScope, 'none' | 'all'>): unknown {
  const own = { type: 'condition', field: '_owner', operator: 'eq', value: SELF };
  if (reach === 'own') return own;
  const joined = [
    own,
    { type: 'condition', field: '_createdBy', operator: 'eq', value: SELF },
    ...scope.schema.fields.filter((f) => f.fieldType.code === '26').map((f) => ({ type: 'condition', field: f.id, operator: 'eq', value: SELF })),
  ];
  const subordinates = reach === 'subordinates' && actor.grants.subordinateAccounts.length > 0 ? [{ type: 'condition', field: '_owner', operator: 'in', value: [...actor.grants.subordinateAccounts] }] : [];
  return { type: 'group', logic: 'OR', children: [...joined, ...subordinates] };
}

/** The records a data scope reaches, compiled without the caller's hidden fields (a member field counts for the scope even where it is hidden). */
function scopeRows(actor: Actor, scope: FilterScope, reach: Exclude<DataScope, 'none'>): RowPredicate {
  if (reach === 'all') return EVERY_ROW;
  return compileFilter({ ...scope, hiddenFields: undefined, selfAccountId: actor.accountId }, scopeFilter(actor, scope, reach), 'data scope');
}

/**
 * The records some views show: the union of their filters (the worksheet as it is now: conditions
 * on fields removed since are forgotten), compiled as a list through the view compiles them. A view
 * without a filter shows every record; one deleted since shows none.
 */
function viewRows(actor: Actor, scope: FilterScope, views: readonly string[], filters: ReadonlyMap<string, unknown>): RowPredicate {
  let rows = NO_ROW;
  for (const view of views) {
    if (!filters.has(view)) continue;
    rows = eitherOf(rows, compileFilter({ ...scope, hiddenFields: undefined, selfAccountId: actor.accountId }, filterOfFieldsNow(filters.get(view), scope.schema), 'view filter'));
    if (rows.everyRow) break;
  }
  return rows;
}

/** The records reached through views: the union of each reach's data scope within its views. */
function reachedRows(actor: Actor, scope: FilterScope, reaches: readonly ViewReach[], filters: ReadonlyMap<string, unknown>): RowPredicate {
  let rows = NO_ROW;
  for (const reach of reaches) {
    const views = reach.views === null ? EVERY_ROW : viewRows(actor, scope, reach.views, filters);
    if (views === NO_ROW) continue;
    rows = eitherOf(rows, bothOf(scopeRows(actor, scope, reach.scope), views));
    if (rows.everyRow) break;
  }
  return rows;
}

/**
 * The records of a worksheet the caller may reach with `right` that also pass `filter`: every
 * record for administrators, a compiled data scope otherwise, within the views the right comes
 * through when it comes through views. A caller with no such right is refused (10005 / 600320) —
 * services ask `requireWorksheetRight` first, for the clearer message.
 * @example repository.listRows(ctx, table, columns, rowsFor(ctx.actor, filterScope, 'read', filter), …)
 */
export function rowsFor(actor: Actor, scope: FilterScope, right: RowRight, filter: RowPredicate = EVERY_ROW): ScopedRows {
  const grant = worksheetGrant(actor, scope.schema.id);
  const reach = grant[right];
  if (reach === 'none') throw forbidden(actor, `you may not ${right} records of the worksheet "${scope.schema.name}"`);
  if (reachesEveryRecord(grant, right)) return scoped(filter);
  const limited = grant.throughViews?.[right];
  // Kept with the grant as stored (a read-only key's grant is a copy made per call, its reaches the same).
  const stored = actor.grants.worksheets.get(scope.schema.id) ?? actor.grants.otherWorksheets;
  const own = keptRows(stored, scope, `${right}\u0000${actor.accountId}`, () => (limited ? reachedRows(actor, scope, limited, grant.viewFilters ?? new Map()) : scopeRows(actor, scope, reach)));
  return scoped(bothOf(own, filter));
}
