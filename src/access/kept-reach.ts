import { DateTime } from 'luxon';
import type { FilterScope, RowPredicate } from '../query/index.js';
import type { WorksheetGrant } from './grants.js';

/**
 * The compiled rows a grant reaches, kept with the grant: a person's grants live as long as their
 * cached standing (5 s), a custom key's as its cached key, so a member's data scope and the filters
 * of the views their rights come through are compiled once per standing and worksheet schema, not
 * per request. A compiled predicate is a pure function of the scope it was compiled in: the schema
 * (kept per schema object, replaced whenever the worksheet changes), the time zone, the caller, and
 * the day — dynamic dates (`today`, `last7days` …) are days counted from today in the time zone —
 * so an entry serves until the day it was compiled on ends.
 */

interface Kept {
  rows: RowPredicate;
  /** The day it holds for, as [from, until) in epoch milliseconds. */
  from: number;
  until: number;
}

const kept = new WeakMap<WorksheetGrant, WeakMap<FilterScope['schema'], Map<string, Kept>>>();

/**
 * The rows `compile` makes for this grant, worksheet and `key` (the right and the caller), compiled
 * again only on a new schema, another time zone or another day.
 * @example keptRows(grant, scope, `read\u0000${actor.accountId}`, () => compileFilter(scope, filter))
 */
export function keptRows(grant: WorksheetGrant, scope: FilterScope, key: string, compile: () => RowPredicate): RowPredicate {
  let bySchema = kept.get(grant);
  if (!bySchema) kept.set(grant, (bySchema = new WeakMap()));
  let byKey = bySchema.get(scope.schema);
  if (!byKey) bySchema.set(scope.schema, (byKey = new Map()));
  const fullKey = `${key}\u0000${scope.timeZone}`;
  const hit = byKey.get(fullKey);
  if (hit && scope.now >= hit.from && scope.now < hit.until) return hit.rows;
  const rows = compile();
  const day = DateTime.fromMillis(scope.now, { zone: scope.timeZone }).startOf('day');
  byKey.set(fullKey, { rows, from: day.toMillis(), until: day.plus({ days: 1 }).toMillis() });
  return rows;
}
