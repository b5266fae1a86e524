import { bothOf, compileFilter, EVERY_ROW, type FilterScope, type RowPredicate } from '../query/index.js';
import type { Actor } from '../shared/actor.js';
import type { DataScope } from './grants.js';
import { dataScopeOf, forbidden, type WorksheetRight } from './policy.js';

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

/**
 * The records of a worksheet the caller may reach with `right` that also pass `filter`: every
 * record for administrators, a compiled data scope otherwise. A caller with no such right is
 * refused (10005 / 600320) — services ask `requireWorksheetRight` first, for the clearer message.
 * @example repository.listRows(ctx, table, columns, rowsFor(ctx.actor, filterScope, 'read', filter), …)
 */
export function rowsFor(actor: Actor, scope: FilterScope, right: Exclude<WorksheetRight, 'add'>, filter: RowPredicate = EVERY_ROW): ScopedRows {
  const reach = dataScopeOf(actor, scope.schema.id, right);
  if (reach === 'all') return scoped(filter);
  if (reach === 'none') throw forbidden(actor, `you may not ${right} records of the worksheet "${scope.schema.name}"`);
  // Compiled without the caller's hidden fields: a member field counts for the scope even where it is hidden.
  const own = compileFilter({ ...scope, hiddenFields: undefined, selfAccountId: actor.accountId }, scopeFilter(actor, scope, reach), 'data scope');
  return scoped(bothOf(own, filter));
}
