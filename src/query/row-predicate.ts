import { sql, type Expression, type SqlBool } from 'kysely';

declare const predicateBrand: unique symbol;

/**
 * Which rows a read may see: the caller's filter ANDed with (later) the caller's data scope.
 * Repository reads take one as a required argument, and only `query/` makes them, so no read path
 * can leave out the filter or the permissions by forgetting an argument.
 */
export interface RowPredicate {
  readonly [predicateBrand]: true;
  readonly expression: Expression<SqlBool>;
  /** True when the predicate holds for every row (nothing to add to the WHERE clause). */
  readonly everyRow: boolean;
}

function make(expression: Expression<SqlBool>, everyRow: boolean): RowPredicate {
  return { expression, everyRow } as RowPredicate;
}

/** Every live row: for reads by the key of an application administrator, before scopes exist. */
export const EVERY_ROW: RowPredicate = make(sql<SqlBool>`1 = 1`, true);

/** A predicate from a compiled condition tree (query/ only). */
export function predicateOf(expression: Expression<SqlBool>): RowPredicate {
  return make(expression, false);
}

/** Both predicates; used to AND a filter with a data scope. */
export function bothOf(a: RowPredicate, b: RowPredicate): RowPredicate {
  if (a.everyRow) return b;
  if (b.everyRow) return a;
  return make(sql<SqlBool>`(${a.expression} AND ${b.expression})`, false);
}
