import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema } from '../worksheets/index.js';
import { linkSideOf } from './links/link-side.js';
import { relatedCount, relatedRows } from './links/link-repository.js';
import { presentRows, selectColumns } from './present-rows.js';
import { readableFields } from './presenter.js';
import * as repository from './repository.js';
import { rowShapeFor } from './row-shape.js';
import { callerScope } from './filter-scope.js';
import { requireWorksheetRight, rowsFor, seesField, worksheetGrant } from '../../access/index.js';

export interface RelatedQuery {
  pageSize?: number;
  pageIndex?: number;
  /** Flat rows: add the `_` system keys (the public name of the list's `includeSystemFields`). */
  isReturnSystemFields?: boolean;
  useFieldIdAsKey?: boolean;
}

/**
 * The records one record relates to through a relation field (either side of it), a page at a
 * time in link order, in the list's row shape of the related worksheet: `{rows, total, pageIndex, pageSize}`.
 */
export async function listRelated(ctx: ServiceContext, worksheetKey: string, rowId: string, fieldKey: string, query: RelatedQuery) {
  const schema = await loadSchema(ctx, worksheetKey);
  const field = schema.byKey.get(fieldKey);
  if (!field) throw AppError.invalidValue(`field: no field "${fieldKey.slice(0, 80)}" in this worksheet`);
  if (field.fieldType.storage !== 'links') throw AppError.invalidValue(`field: "${field.name}" is a ${field.fieldType.name} field, not a relation`);
  requireWorksheetRight(ctx.actor, schema, 'read');
  if (!seesField(ctx.actor, schema.id, field.id)) throw AppError.invalidValue(`field: no field "${fieldKey.slice(0, 80)}" in this worksheet`);
  if (!(await repository.findRow(ctx, ctx.dialect, schema.table, rowId, ['id'], rowsFor(ctx.actor, callerScope(ctx, schema), 'read')))) throw AppError.notFound(`record "${rowId}" does not exist or was deleted`);
  const side = linkSideOf(field);
  const related = await loadSchema(ctx, side.relatedWorksheetId);
  // The related records the caller may read; none at all when it may read none of that worksheet.
  requireWorksheetRight(ctx.actor, related, 'read');
  const visible = rowsFor(ctx.actor, callerScope(ctx, related), 'read');
  const fields = readableFields(related, null, worksheetGrant(ctx.actor, related.id).hiddenFields);
  const pageSize = query.pageSize ?? 20;
  const pageIndex = query.pageIndex ?? 1;
  const shape = rowShapeFor(ctx.profile, { useFieldIdAsKey: query.useFieldIdAsKey, includeSystemFields: query.isReturnSystemFields });
  const [raw, total] = await Promise.all([
    relatedRows(ctx, side, rowId, selectColumns(fields, shape), visible, pageSize, (pageIndex - 1) * pageSize),
    relatedCount(ctx, side, rowId, visible),
  ]);
  return { rows: await presentRows(ctx, fields, raw, shape), total, pageIndex, pageSize };
}
