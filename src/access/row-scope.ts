import { sql, type SqlBool } from 'kysely';
import { bothOf, EVERY_ROW, predicateOf, type RowPredicate } from '../query/index.js';
import type { Actor } from '../shared/actor.js';
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

/**
 * The records of a worksheet the caller may reach with `right` that also pass `filter`: every
 * record for administrators, their own (`_owner`) or their subordinates' for a limited data scope.
 * A caller with no such right reads nothing (10005 / 600320 is for the caller to raise first:
 * `requireWorksheetRight`); this refuses too, as a guard.
 * @example repository.listRows(ctx, table, columns, rowsFor(ctx.actor, schema, 'read', filter), …)
 */
export function rowsFor(actor: Actor, worksheet: { id: string; name: string }, right: Exclude<WorksheetRight, 'add'>, filter: RowPredicate = EVERY_ROW): ScopedRows {
  const scope = dataScopeOf(actor, worksheet.id, right);
  switch (scope) {
    case 'all':
      return scoped(filter);
    case 'own':
      return scoped(bothOf(predicateOf(sql<SqlBool>`${sql.ref('_owner')} = ${actor.accountId}`), filter));
    case 'subordinates': {
      const accounts = [...new Set([actor.accountId, ...actor.grants.subordinateAccounts])];
      return scoped(bothOf(predicateOf(sql<SqlBool>`${sql.ref('_owner')} IN (${sql.join(accounts)})`), filter));
    }
    default:
      throw forbidden(actor, `you may not ${right} records of the worksheet "${worksheet.name}"`);
  }
}

/**
 * Every row, for reads that are not a caller's: the server's own checks of what a write left. Named
 * so that each use stands out in review; a caller's read goes through `rowsFor`.
 */
export const EVERY_ROW_FOR_THE_SERVER: ScopedRows = scoped(EVERY_ROW);
