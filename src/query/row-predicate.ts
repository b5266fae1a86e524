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
  /**
   * Other worksheets whose records the predicate reads (a condition on a relation tests the related
   * records): what it lets through changes when their records change too.
   */
  readonly relatedWorksheets: readonly string[];
}

function make(expression: Expression<SqlBool>, everyRow: boolean, relatedWorksheets: readonly string[] = []): RowPredicate {
  return { expression, everyRow, relatedWorksheets } as RowPredicate;
}

/** Every live row: for reads by the key of an application administrator, before scopes exist. */
export const EVERY_ROW: RowPredicate = make(sql<SqlBool>`1 = 1`, true);

/** A predicate from a compiled condition tree (query/ only), with the other worksheets it reads. */
export function predicateOf(expression: Expression<SqlBool>, relatedWorksheets: Iterable<string> = []): RowPredicate {
  return make(expression, false, [...relatedWorksheets]);
}

/** Both predicates; used to AND a filter with a data scope. */
export function bothOf(a: RowPredicate, b: RowPredicate): RowPredicate {
  if (a.everyRow) return b;
  if (b.everyRow) return a;
  return make(sql<SqlBool>`(${a.expression} AND ${b.expression})`, false, [...new Set([...a.relatedWorksheets, ...b.relatedWorksheets])]);
}

/** No row at all: a right that reaches records only through views none of which exists any more. */
export const NO_ROW: RowPredicate = make(sql<SqlBool>`1 = 0`, false);

/** Either predicate: the union of two row sets (rights reached through several views or roles). */
export function eitherOf(a: RowPredicate, b: RowPredicate): RowPredicate {
  if (a.everyRow || b === NO_ROW) return a;
  if (b.everyRow || a === NO_ROW) return b;
  return make(sql<SqlBool>`(${a.expression} OR ${b.expression})`, false, [...new Set([...a.relatedWorksheets, ...b.relatedWorksheets])]);
}
