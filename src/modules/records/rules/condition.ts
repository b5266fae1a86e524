import { compileFilter, type FilterScope, type RowPredicate } from '../../../query/index.js';
import { AppError } from '../../../shared/app-error.js';

/**
 * A rule's condition is the filter language of lists, compiled by the same compiler (`query/`), so
 * that a rule and a list filter can never disagree about which records match.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The condition with every field named by its id (an alias may change later; the id does not). */
function byFieldIds(scope: FilterScope, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((child) => byFieldIds(scope, child));
  if (!isObject(node)) return node;
  const copy: Record<string, unknown> = { ...node };
  if (Array.isArray(node.children)) copy.children = node.children.map((child) => byFieldIds(scope, child));
  if (typeof node.field === 'string') {
    const meta = scope.schema.byKey.get(node.field);
    if (meta) copy.field = meta.id;
  }
  return copy;
}

/**
 * Checks a condition as a list filter would be checked (10001/10002 naming `condition…`), refuses
 * one that holds for every record (10001), and returns it with fields by id, ready to store.
 * @example checkCondition(scope, { type: 'condition', field: 'amount', operator: 'gt', value: 1000 })
 */
export function checkCondition(scope: FilterScope, condition: unknown): unknown {
  const predicate = compileFilter(scope, condition, 'condition');
  if (predicate.everyRow) throw AppError.invalidParameters('condition: at least one condition is required (a rule without one would refuse every write)');
  return byFieldIds(scope, condition);
}

/**
 * A stored condition compiled for one write (its time, its actor: dynamic dates and `user-self`), or
 * null when it no longer compiles (a field it names was deleted or changed type since it was saved).
 */
export function compileCondition(scope: FilterScope, stored: string): RowPredicate | null {
  return compiled(scope, stored).predicate;
}

/** Why a stored condition no longer compiles (the compiler's message, naming the condition), or null when it does. */
export function conditionProblem(scope: FilterScope, stored: string): string | null {
  return compiled(scope, stored).problem;
}

function compiled(scope: FilterScope, stored: string): { predicate: RowPredicate | null; problem: string | null } {
  try {
    return { predicate: compileFilter(scope, JSON.parse(stored) as unknown, 'condition'), problem: null };
  } catch (error) {
    if (error instanceof AppError) return { predicate: null, problem: error.message };
    throw error;
  }
}
