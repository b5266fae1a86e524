import type { FieldMeta } from '../../../fields/field-type.js';
import type { LinkEdit } from '../../../fields/types/relation.js';
import type { SubTableEdit } from '../../../fields/types/sub-table.js';
import { AppError } from '../../../shared/app-error.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { emptyReferenceSet, encodeValues, type ReferenceSet } from '../value-codec.js';
import { linkSideOf } from './link-side.js';
import { linksOf } from './link-repository.js';

/** The record writer's calls, for the child records (passed in: the writer is the one that calls this). */
export interface ChildWriter {
  insert(ctx: ServiceContext, schema: WorksheetSchema, rows: Array<Map<string, unknown>>, refs: ReferenceSet): Promise<string[]>;
  update(ctx: ServiceContext, schema: WorksheetSchema, updates: Array<{ ids: string[]; values: Map<string, unknown> }>, refs: ReferenceSet): Promise<string[]>;
  remove(ctx: ServiceContext, schema: WorksheetSchema, ids: string[], permanent: boolean): Promise<string[]>;
}

/** Errors in a child row's data are the sub-table's: 430020, with the message that names the row and field. */
const CHILD_DATA_ERRORS = new Set<number>([ErrorCode.InvalidParameters, ErrorCode.InvalidValue, ErrorCode.RequiredFieldEmpty, ErrorCode.DuplicateFieldValue]);

/**
 * Writes a record's sub-table rows, inside the record's write transaction (`ctx.db` is it): new rows
 * are created, rows with a `sid` updated (it must be one of the record's), rows the record had and
 * the value leaves out are deleted for good. Returns the links the record then has, in order, for the
 * writer's link step.
 */
export async function writeChildRows(ctx: ServiceContext, write: ChildWriter, field: FieldMeta, child: WorksheetSchema, rowId: string, edit: SubTableEdit, created: boolean): Promise<LinkEdit> {
  const current = created ? [] : ((await linksOf(ctx.db, linkSideOf(field), [rowId])).get(rowId) ?? []);
  const ids: string[] = [];
  for (const [i, row] of edit.rows.entries()) {
    const where = `field "${field.name}" rows[${i}].`;
    try {
      const refs = emptyReferenceSet();
      if (row.sid !== undefined) {
        if (!current.includes(row.sid)) throw AppError.invalidValue(`${where}sid: "${row.sid}" is not a row of this record's sub-table`);
        await write.update(ctx, child, [{ ids: [row.sid], values: encodeValues(child, row.fields, where, ctx.timeZone, 'update', refs) }], refs);
        ids.push(row.sid);
      } else {
        ids.push(...(await write.insert(ctx, child, [encodeValues(child, row.fields, where, ctx.timeZone, 'create', refs)], refs)));
      }
    } catch (error) {
      if (error instanceof AppError && CHILD_DATA_ERRORS.has(error.code)) throw new AppError(ErrorCode.InvalidSubformData, 400, error.message);
      throw error;
    }
  }
  const dropped = current.filter((id) => !ids.includes(id));
  if (dropped.length > 0) await write.remove(ctx, child, dropped, true);
  return { mode: 'replace', ids };
}

/** The child records of these records in their sub-tables, by field (live and in the recycle bin). */
export async function childRowsOf(ctx: ServiceContext, owned: FieldMeta[], rowIds: string[]): Promise<Map<FieldMeta, string[]>> {
  const children = new Map<FieldMeta, string[]>();
  for (const field of owned) children.set(field, [...(await linksOf(ctx.db, linkSideOf(field), rowIds)).values()].flat());
  return children;
}
