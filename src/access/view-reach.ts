import { DATA_SCOPE_ORDER, type DataScope, type RowRight, type ViewReach, type WorksheetGrant } from './grants.js';

/**
 * How far a right reaches when rights come through views, as pure functions: a grant's reaches per
 * right, and two grants' reaches added up (the union of their row sets), kept small so that the
 * predicate compiled from them (`row-scope.ts`) stays small too.
 */

const ROW_RIGHTS: readonly RowRight[] = ['read', 'edit', 'delete'];

const rank = (scope: DataScope) => DATA_SCOPE_ORDER.indexOf(scope);
const wider = (a: DataScope, b: DataScope): DataScope => (rank(a) >= rank(b) ? a : b);

/**
 * The reaches of one right: those limited to views, or the right's data scope whole (none for a
 * right that reaches nothing).
 * @example reachesOf({ ...NO_WORKSHEET, read: 'own' }, 'read') // [{ scope: 'own', views: null }]
 */
export function reachesOf(grant: WorksheetGrant, right: RowRight): readonly ViewReach[] {
  const scope = grant[right];
  if (scope === 'none') return [];
  return grant.throughViews?.[right] ?? [{ scope, views: null }];
}

/**
 * The union of reaches, simplified: a data scope reached through every view holds the narrower
 * ones reached through some views (own ⊂ joined ⊂ subordinates' ⊂ all), and reaches of one data
 * scope through views join into one. Null: the right reaches its widest data scope whole.
 */
function unionOf(reaches: readonly ViewReach[]): { widest: DataScope; limited: ViewReach[] | null } {
  let whole: DataScope = 'none';
  for (const reach of reaches) if (reach.views === null) whole = wider(whole, reach.scope);
  const byScope = new Map<ViewReach['scope'], Set<string>>();
  for (const reach of reaches) {
    if (reach.views === null || rank(reach.scope) <= rank(whole)) continue;
    const views = byScope.get(reach.scope) ?? new Set<string>();
    for (const view of reach.views) views.add(view);
    byScope.set(reach.scope, views);
  }
  let widest = whole;
  for (const scope of byScope.keys()) widest = wider(widest, scope);
  if (byScope.size === 0) return { widest, limited: null };
  const limited: ViewReach[] = [...byScope].map(([scope, views]) => ({ scope, views: [...views] }));
  if (whole !== 'none') limited.unshift({ scope: whole, views: null });
  return { widest, limited };
}

/** The reaches of two grants of one worksheet added up, with the view filters they name. */
export function mergeReaches(a: WorksheetGrant, b: WorksheetGrant): Pick<WorksheetGrant, RowRight | 'throughViews' | 'viewFilters'> {
  const merged = { read: 'none', edit: 'none', delete: 'none' } as Record<RowRight, DataScope>;
  const throughViews: Partial<Record<RowRight, readonly ViewReach[]>> = {};
  for (const right of ROW_RIGHTS) {
    const { widest, limited } = unionOf([...reachesOf(a, right), ...reachesOf(b, right)]);
    merged[right] = widest;
    if (limited) throughViews[right] = limited;
  }
  if (Object.keys(throughViews).length === 0) return merged;
  const viewFilters = new Map([...(a.viewFilters ?? []), ...(b.viewFilters ?? [])]);
  return { ...merged, throughViews, viewFilters };
}

/**
 * Whether a right may be used through a view (a list or pivot naming `viewId`): always for a right
 * not limited to views, else when one of its reaches names the view.
 */
export function reachesThroughView(grant: WorksheetGrant, right: RowRight, viewId: string): boolean {
  return reachesOf(grant, right).some((reach) => reach.views === null || reach.views.includes(viewId));
}

/** Whether a right reaches every record of the worksheet, whatever the views (no predicate to add). */
export function reachesEveryRecord(grant: WorksheetGrant, right: RowRight): boolean {
  return grant[right] === 'all' && !grant.throughViews?.[right];
}
