import { worksheetGrant } from '../../access/index.js';
import type { FilterScope } from '../../query/index.js';
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
