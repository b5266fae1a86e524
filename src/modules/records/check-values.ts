import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema } from '../worksheets/index.js';
import { checkReferencesExist } from './references.js';
import { emptyReferenceSet, encodeValues, type FieldValueInput } from './value-codec.js';

/**
 * Checks values as an update of a record would (types, options, members and records they refer to)
 * without writing them, for values written later (a fill-in's, by its workflow step). Returns each
 * value's field id (values may name fields by alias). The same errors as the update (10002 naming
 * `where` and the field).
 * @example await checkFieldValues(ctx, worksheetId, [{ id: 'amount', value: 12 }], 'items[0].') // → ['64f…']
 */
export async function checkFieldValues(ctx: ServiceContext, worksheetKey: string, fields: FieldValueInput[], where: string): Promise<string[]> {
  const schema = await loadSchema(ctx, worksheetKey);
  const refs = emptyReferenceSet();
  encodeValues(schema, fields, where, ctx.timeZone, 'update', refs);
  await checkReferencesExist(ctx.db, ctx.actor.organizationId, refs, where);
  return fields.map((field) => schema.byKey.get(field.id!)!.id);
}
