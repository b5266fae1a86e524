import { dataScopeOf, worksheetGrant } from '../../access/index.js';
import type { FilterScope, IndexableColumns } from '../../query/index.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { WorksheetSchema } from '../worksheets/index.js';

/**
 * What a caller's filters on a worksheet are compiled in: now, in `TIME_ZONE`, `user-self` the
 * caller, and the fields the caller may not see refused (430014) wherever the request names them.
 */
export function callerScope(ctx: ServiceContext, schema: WorksheetSchema): FilterScope {
  const hidden = worksheetGrant(ctx.actor, schema.id).hiddenFields;
  return { schema, dialect: ctx.dialect, now: ctx.now(), timeZone: ctx.timeZone, selfAccountId: ctx.actor.accountId, ...(hidden.size > 0 ? { hiddenFields: hidden } : {}) };
}

/**
 * The columns an index could serve a read by, with the caller's data scope ANDed in: a caller limited
 * to their own records reads by owner too (an equality column); a scope through departments or
 * subordinates reads other tables, so no index holds every column the read tests (`complete` false).
 */
export function scopedIndexable(ctx: ServiceContext, schema: WorksheetSchema, indexable: IndexableColumns): IndexableColumns {
  const scope = dataScopeOf(ctx.actor, schema.id, 'read');
  if (scope === 'own') return { ...indexable, equality: [...indexable.equality, '_owner'] };
  return scope === 'all' ? indexable : { ...indexable, complete: false };
}
