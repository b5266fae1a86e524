import { bothOf, planFilter, type FilterScope, type RowPredicate } from '../../query/index.js';
import type { ViewForRead } from '../views/index.js';

/**
 * The filter of a list: the request's, ANDed with the view's when it names one (the view's
 * conditions hold for every row too, so the index planner may use them).
 */
export function planViewFilter(scope: FilterScope, view: ViewForRead | null, filter: unknown): ReturnType<typeof planFilter> {
  const request = planFilter(scope, filter);
  if (!view) return request;
  // The view's filter is its administrator's: it may name fields the caller does not see.
  const own = planFilter({ ...scope, hiddenFields: undefined }, view.definition.filter, 'view filter');
  const merge = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  return {
    predicate: bothOf(own.predicate, request.predicate),
    indexable: {
      equality: merge(own.indexable.equality, request.indexable.equality),
      range: merge(own.indexable.range, request.indexable.range),
      complete: own.indexable.complete && request.indexable.complete,
    },
  };
}

/** The filter of a read (list or pivot): the request's, ANDed with the view's when it names one. */
export function viewFilter(scope: FilterScope, view: ViewForRead | null, filter: unknown): RowPredicate {
  return planViewFilter(scope, view, filter).predicate;
}
