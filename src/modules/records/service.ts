import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { loadSchema, requestReadIndex, type WorksheetSchema } from '../worksheets/index.js';
import { readableFields } from './presenter.js';
import { presentRows, presentRowsAsText, selectColumns } from './present-rows.js';
import { rowTextWriter } from './row-json.js';
import { recordsMarkdown } from './record-markdown.js';
import { rowShapeFor, type RowShape, type RowShapeRequest } from './row-shape.js';
import * as writer from './writer.js';
import * as repository from './repository.js';
import { bothOf, compileSearch, indexFor, sortableSystemColumn } from '../../query/index.js';
import { rowCountSums } from './row-counts.js';
import { filteredTotal } from './filtered-totals.js';
import { BIN_ORDER, DELETION_COLUMNS, rowStateOf, withDeletion } from './recycle-bin.js';
import { emptyReferenceSet, encodeValues, type FieldValueInput } from './value-codec.js';
import * as drafts from './drafts/service.js';
import { viewForRead, visibleFieldIds } from '../views/index.js';
import { planViewFilter } from './view-filter.js';
import { callerScope, scopedIndexable } from './filter-scope.js';
import { reachableIds, requireReachable, requireWritableFields } from './permissions.js';
import { reachesEveryRow, requireWorksheetRight, worksheetGrant, rowsFor, type ScopedRows } from '../../access/index.js';

export const MAX_BATCH = 1000;

export interface ListInput {
  pageSize?: number;
  pageIndex?: number;
  sorts?: Array<{ field: string; isAsc?: boolean }>;
  fields?: string[];
  filter?: unknown;
  search?: string;
  viewId?: string;
  includeTotalCount?: boolean;
  /** Flat rows only: add the five `_` system keys (spec rows always have them). */
  includeSystemFields?: boolean;
  /** Present (true or false): flat rows, keyed by field id (true) or alias (false). */
  useFieldIdAsKey?: boolean;
  /** With `viewId`: true (the default) shows the view's table fields, false the fields of its own format. */
  tableView?: boolean;
  /** `md`: `rows` is one text table instead of an array. */
  responseFormat?: 'json' | 'md';
  /** List the records in the recycle bin instead of the live ones (`recycle-bin.ts`). */
  recycleBin?: boolean;
  /** true: the caller's draft box instead of the records (`drafts/`). */
  isDraft?: boolean;
}

/**
 * The fields a list of field ids or aliases names (a list's projection, a share link's visible
 * fields); blank entries (`[""]`, as in the public examples) are skipped; an unknown one is 10002
 * naming it as `{parameter}[i]`. Null when the list names no field.
 * @example projection(schema, ['title', ''], 'visibleFields') // [title field]
 */
export function projection(schema: WorksheetSchema, keys: string[] | undefined, parameter = 'fields', hidden?: ReadonlySet<string>): FieldMeta[] | null {
  // A field named twice (by id and by alias, say) is shown once, where it was first named.
  const projected = new Map<string, FieldMeta>();
  for (const [i, key] of (keys ?? []).entries()) {
    if (key.trim() === '') continue;
    const field = schema.byKey.get(key);
    if (!field) throw AppError.invalidValue(`${parameter}[${i}]: no field "${key.slice(0, 80)}" in this worksheet`);
    if (hidden?.has(field.id)) throw new AppError(ErrorCode.FieldPermissionDenied, 403, `${parameter}[${i}]: you may not see the field "${field.name}"`);
    if (!projected.has(field.id)) projected.set(field.id, field);
  }
  return projected.size === 0 ? null : [...projected.values()];
}

export async function createRecord(ctx: ServiceContext, worksheetKey: string, fields: FieldValueInput[], isDraft = false): Promise<{ id: string }> {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'add');
  if (isDraft) return drafts.createDraft(ctx, schema, fields);
  const refs = emptyReferenceSet();
  const values = encodeValues(schema, fields, '', ctx.timeZone, 'create', refs);
  requireWritableFields(ctx, schema, values);
  const [id] = await writer.insertRecords(ctx, schema, [values], refs);
  return { id };
}

export async function createRecords(ctx: ServiceContext, worksheetKey: string, rows: Array<{ fields?: FieldValueInput[] }>, isDraft = false): Promise<{ rowIds: string[] }> {
  if (isDraft) throw AppError.invalidParameters('isDraft: drafts are saved one at a time, with POST …/rows; a batch makes records');
  if (rows.length === 0) throw AppError.invalidParameters('rows must hold at least one record');
  if (rows.length > MAX_BATCH) throw AppError.invalidParameters(`rows: at most ${MAX_BATCH} records per call, got ${rows.length}`);
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'add');
  const refs = emptyReferenceSet();
  const encoded = rows.map((row, i) => encodeValues(schema, row.fields ?? [], `rows[${i}].`, ctx.timeZone, 'create', refs));
  for (const values of encoded) requireWritableFields(ctx, schema, values);
  return { rowIds: await writer.insertRecords(ctx, schema, encoded, refs) };
}

/** A record by id; `asWireText` (the get route): as its JSON text (`row-json.ts`), other callers read an object. */
export async function getRecord(ctx: ServiceContext, worksheetKey: string, rowId: string, request: RowShapeRequest = {}, asWireText = false) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'read');
  const fields = readableFields(schema, null, worksheetGrant(ctx.actor, schema.id).hiddenFields);
  const shape = rowShapeFor(ctx.profile, request);
  const row = await repository.findRow(ctx, ctx.dialect, schema.table, rowId, selectColumns(fields, shape), rowsFor(ctx.actor, callerScope(ctx, schema), 'read'));
  // Not a live record: perhaps a draft of the caller (10007 otherwise).
  if (!row) return drafts.readDraft(ctx, schema, fields, rowId, request);
  const writeText = asWireText ? rowTextWriter(shape, fields) : null;
  const [record] = writeText ? await presentRowsAsText(ctx, fields, [row], writeText) : await presentRows(ctx, fields, [row], shape);
  return record;
}

export async function updateRecord(ctx: ServiceContext, worksheetKey: string, rowId: string, fields: FieldValueInput[]): Promise<{ id: string }> {
  const schema = await loadSchema(ctx, worksheetKey);
  // A draft's required fields may stay empty: it is asked about before the record checks apply.
  if (await drafts.isOwnDraft(ctx, schema, rowId)) return drafts.updateDraft(ctx, schema, rowId, fields);
  requireWorksheetRight(ctx.actor, schema, 'edit');
  const refs = emptyReferenceSet();
  const values = encodeValues(schema, fields, '', ctx.timeZone, 'update', refs);
  requireWritableFields(ctx, schema, values);
  await requireReachable(ctx, schema, rowId, 'edit', 'live');
  const changed = await writer.updateRecords(ctx, schema, [{ ids: [rowId], values }], refs);
  if (changed.length === 0) throw AppError.notFound(`record "${rowId}" does not exist or was deleted`);
  return { id: rowId };
}

function checkRowIds(rowIds: string[], where: string): string[] {
  if (rowIds.length === 0) throw AppError.invalidParameters(`${where} must hold at least one record id`);
  if (rowIds.length > MAX_BATCH) throw AppError.invalidParameters(`${where}: at most ${MAX_BATCH} records per call, got ${rowIds.length}`);
  return [...new Set(rowIds)];
}

/**
 * Batch update: the same values on `rowIds`, or per-row values in `rows`. Every value is
 * checked before anything is written; ids that are not live records are reported as failed.
 */
export async function updateRecords(
  ctx: ServiceContext,
  worksheetKey: string,
  input: { rowIds?: string[]; fields?: FieldValueInput[]; rows?: Array<{ id: string; fields?: FieldValueInput[] }> },
): Promise<{ successfulRowIds: string[]; failedRowIds: string[] }> {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'edit');
  const refs = emptyReferenceSet();
  let updates: Array<{ ids: string[]; values: Map<string, unknown> }>;
  let requested: string[];
  if (input.rows !== undefined) {
    if (input.rowIds !== undefined) throw AppError.invalidParameters('send either rowIds with fields, or rows, not both');
    requested = checkRowIds(input.rows.map((r) => r.id), 'rows');
    if (requested.length !== input.rows.length) throw AppError.invalidValue('rows: a record id appears twice');
    updates = input.rows.map((row, i) => ({ ids: [row.id], values: encodeValues(schema, row.fields ?? [], `rows[${i}].`, ctx.timeZone, 'update', refs) }));
  } else {
    if (input.rowIds === undefined) throw AppError.invalidParameters('rowIds (with fields) or rows is required');
    if (input.fields === undefined) throw AppError.invalidParameters('fields is required with rowIds');
    requested = checkRowIds(input.rowIds, 'rowIds');
    updates = [{ ids: requested, values: encodeValues(schema, input.fields, '', ctx.timeZone, 'update', refs) }];
  }
  for (const update of updates) requireWritableFields(ctx, schema, update.values);
  // Records the caller may not edit are left out, and reported as failed like records that do not exist.
  const reachable = new Set(await reachableIds(ctx, schema, requested, 'edit', 'live'));
  const allowed = updates.map((u) => ({ ...u, ids: u.ids.filter((id) => reachable.has(id)) })).filter((u) => u.ids.length > 0);
  const changed = new Set(allowed.length === 0 ? [] : await writer.updateRecords(ctx, schema, allowed, refs));
  return { successfulRowIds: requested.filter((id) => changed.has(id)), failedRowIds: requested.filter((id) => !changed.has(id)) };
}

export async function deleteRecord(ctx: ServiceContext, worksheetKey: string, rowId: string, permanent: boolean): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  // A draft of the caller is theirs to discard whatever their rights in the worksheet (asked first only for callers whose rights are limited).
  if (!reachesEveryRow(ctx.actor, schema.id, 'delete') && (await drafts.isOwnDraft(ctx, schema, rowId))) {
    await drafts.discardDraft(ctx, schema, rowId);
    return;
  }
  requireWorksheetRight(ctx.actor, schema, 'delete');
  await requireReachable(ctx, schema, rowId, 'delete', permanent ? 'any' : 'live');
  const deleted = await writer.removeRecords(ctx, schema, [rowId], permanent);
  // Not a live record (or one in the bin): perhaps a draft of the caller, discarded for good.
  if (deleted.length === 0 && !(await drafts.discardDraft(ctx, schema, rowId))) throw AppError.notFound(`record "${rowId}" does not exist or was deleted`);
}

export async function deleteRecords(ctx: ServiceContext, worksheetKey: string, rowIds: string[], permanent: boolean) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'delete');
  const requested = checkRowIds(rowIds, 'rowIds');
  const reachable = await reachableIds(ctx, schema, requested, 'delete', permanent ? 'any' : 'live');
  const deleted = new Set(reachable.length === 0 ? [] : await writer.removeRecords(ctx, schema, reachable, permanent));
  return { successfulRowIds: requested.filter((id) => deleted.has(id)), failedRowIds: requested.filter((id) => !deleted.has(id)) };
}

export async function restoreRecord(ctx: ServiceContext, worksheetKey: string, rowId: string): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'delete');
  await requireReachable(ctx, schema, rowId, 'delete', 'bin');
  const restored = await writer.restoreRecords(ctx, schema, [rowId]);
  if (restored.length === 0) throw AppError.notFound(`record "${rowId}" is not in the recycle bin`);
}

export async function restoreRecords(ctx: ServiceContext, worksheetKey: string, rowIds: string[]) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'delete');
  const requested = checkRowIds(rowIds, 'rowIds');
  const reachable = await reachableIds(ctx, schema, requested, 'delete', 'bin');
  const restored = new Set(reachable.length === 0 ? [] : await writer.restoreRecords(ctx, schema, reachable));
  return { successfulRowIds: requested.filter((id) => restored.has(id)), failedRowIds: requested.filter((id) => !restored.has(id)) };
}

/** The sort terms of a list, checked. */
function sortTerms(schema: WorksheetSchema, sorts: ListInput['sorts'], parameter = 'sorts', hidden?: ReadonlySet<string>): repository.SortTerm[] {
  const terms: repository.SortTerm[] = [];
  for (const [i, sort] of (sorts ?? []).entries()) {
    if (sort.field.trim() === '') continue; // a blank placeholder, as in the public examples
    // System fields sort by their value, except members (as member fields cannot be sorted by).
    const system = sortableSystemColumn(sort.field)?.column;
    const field = system ? null : schema.byKey.get(sort.field);
    if (!system && !field) throw AppError.invalidValue(`${parameter}[${i}].field: no field "${sort.field}" in this worksheet`);
    if (field && hidden?.has(field.id)) throw new AppError(ErrorCode.FieldPermissionDenied, 403, `${parameter}[${i}].field: you may not see the field "${field.name}"`);
    if (field && !field.fieldType.indexable) {
      throw AppError.invalidValue(`${parameter}[${i}].field: cannot sort by "${field.name}", a ${field.fieldType.name} field`);
    }
    const column = system ?? field!.id;
    const ascending = sort.isAsc !== false;
    // A type that orders by something other than its stored value says how (single choices: option order).
    const order = field?.fieldType.sortOrder?.(field);
    if (order) {
      terms.push({ column, ascending, ...order });
      continue;
    }
    terms.push({ column, ascending });
  }
  return terms;
}

/**
 * A page of records: `{rows, total, pageIndex, pageSize}`. The total of an unfiltered list is read
 * from the kept row counts; a filtered one costs a count, made unless `includeTotalCount` is
 * explicitly false (then `total` is left out). Rows are in the shape `row-shape.ts` decides, or one
 * text table with `responseFormat: "md"`. `asWireText` (the list route): rows as their JSON text
 * (`row-json.ts`); other callers read the rows as objects.
 */
export async function listRecords(ctx: ServiceContext, worksheetKey: string, input: ListInput, asWireText = false) {
  const schema = await loadSchema(ctx, worksheetKey);
  requireWorksheetRight(ctx.actor, schema, 'read');
  const view = input.viewId ? await viewForRead(ctx, schema, input.viewId) : null;
  const pageSize = input.pageSize ?? 50;
  const pageIndex = input.pageIndex ?? 1;
  // The request's fields win; without them, the view's visible fields (every field when it names none).
  const hidden = worksheetGrant(ctx.actor, schema.id).hiddenFields;
  const projected = projection(schema, input.fields, 'fields', hidden) ?? (view ? projection(schema, visibleFieldIds(view, input.tableView)) : null);
  const fields = readableFields(schema, projected, hidden);
  if (input.isDraft === true) return drafts.listDrafts(ctx, schema, fields, input);
  const scope = callerScope(ctx, schema);
  const { predicate: filter, indexable: filtered } = planViewFilter(scope, view, input.filter);
  const indexable = scopedIndexable(ctx, schema, filtered);
  const search = compileSearch(scope, input.search);
  const predicate = rowsFor(ctx.actor, scope, 'read', search ? bothOf(filter, search) : filter);
  const state = rowStateOf(input.recycleBin);
  // The request's sorts win; without them, the view's.
  let sort = sortTerms(schema, input.sorts, 'sorts', hidden);
  if (sort.length === 0 && view) sort = sortTerms(schema, view.definition.sort, 'view sort');
  if (state === 'bin' && sort.length === 0) sort.push(...BIN_ORDER);
  // The index that would serve this list is asked for; it is built in the background, never here.
  // (Not for the recycle bin: its lists are rare, and an index for them would slow every write.)
  const leading = sort[0] && !sort[0].optionOrder ? sort[0].column : null;
  if (state === 'live') requestReadIndex(ctx, schema, indexFor(indexable, leading));
  const countTotal = input.includeTotalCount !== false;
  // A filtered total counts every matching row: the index of (equality columns, range column)
  // lets the count read index entries alone, where the sort's index would read every row.
  if (countTotal && !predicate.everyRow && state === 'live') requestReadIndex(ctx, schema, indexFor(indexable, null));
  const shape: RowShape = input.responseFormat === 'md' ? { kind: 'flat', keyByFieldId: true, systemFields: input.includeSystemFields === true } : rowShapeFor(ctx.profile, input);
  const columns = state === 'bin' ? [...selectColumns(fields, shape), ...DELETION_COLUMNS] : selectColumns(fields, shape);
  const [raw, total] = await Promise.all([
    repository.listRows(ctx, schema.table, columns, predicate, sort, pageSize, (pageIndex - 1) * pageSize, state),
    !countTotal ? undefined : predicate.everyRow && state === 'live' ? rowCountSums(ctx.db, ctx.reader, ctx.dialect, [schema.id]).then((sums) => sums.live) : countFiltered(ctx, schema, predicate, state),
  ]);
  const page = { ...(total === undefined ? {} : { total }), pageIndex, pageSize };
  // The list route sends live rows as text; markdown and the recycle bin's rows are built from objects.
  const writeText = asWireText && state === 'live' && input.responseFormat !== 'md' ? rowTextWriter(shape, fields) : null;
  if (writeText) return { rows: await presentRowsAsText(ctx, fields, raw, writeText), ...page };
  const rows = await presentRows(ctx, fields, raw, shape);
  if (input.responseFormat === 'md') return { rows: recordsMarkdown(fields, rows, shape.kind === 'flat' && shape.systemFields), ...page };
  return { rows: state === 'bin' ? await withDeletion(ctx, raw, rows) : rows, ...page };
}

/** The total of a filtered list: counted once per version of the records (`filtered-totals.ts`). */
async function countFiltered(ctx: ServiceContext, schema: WorksheetSchema, predicate: ScopedRows, state: repository.RowState = 'live'): Promise<number> {
  const statement = repository.countStatement(ctx, schema.table, predicate, state);
  // A filter on a relation reads the related worksheets' records too: their writes change the total as well.
  const { version } = await rowCountSums(ctx.db, ctx.reader, ctx.dialect, [...new Set([schema.id, ...predicate.relatedWorksheets])]);
  return filteredTotal(schema, `${statement.sql}\u0000${JSON.stringify(statement.parameters)}`, version, () => repository.countRows(ctx, statement));
}

/** What a filter of this request is compiled in. */

