import { inTransaction } from '../../../db/transaction.js';
import type { FieldMeta } from '../../../fields/field-type.js';
import { AppError } from '../../../shared/app-error.js';
import { ErrorCode } from '../../../shared/error-codes.js';
import { newRowId } from '../../../shared/ids.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import { loadSchema, type WorksheetSchema } from '../../worksheets/index.js';
import { recordsMarkdown } from '../record-markdown.js';
import { checkReferencesExist } from '../references.js';
import { rowShapeFor, type RowPayload, type RowShapeRequest } from '../row-shape.js';
import type { ListInput } from '../service.js';
import { emptyReferenceSet, encodeValues, type FieldValueInput } from '../value-codec.js';
import * as writer from '../writer.js';
import { checkDraftInputs, draftFieldItems, parseInputs, type DraftInputs } from './inputs.js';
import { presentDrafts } from './present.js';
import * as repository from './repository.js';

/**
 * Draft records: saved with `isDraft: true`, kept in their creator's draft box (`record_drafts`),
 * outside the worksheet's row table, so that no list, count, pivot or record-writer hook (logs,
 * computed values, workflows) sees them. Only their creator (`ctx.actor.accountId`) reads, edits,
 * discards or submits them; anyone else is told, as for a missing record, 10007. A submit checks
 * the draft in full and makes it a record, with the same id, through the record writer.
 */

/** The draft box of the caller in a worksheet. */
function boxOf(ctx: ServiceContext, schema: WorksheetSchema): repository.DraftBox {
  return { worksheetId: schema.id, createdBy: ctx.actor.accountId };
}

function notFound(rowId: string): AppError {
  return AppError.notFound(`record "${rowId}" does not exist or was deleted`);
}

/** Inputs still meaningful: those of fields the worksheet has (a removed field's value is dropped). */
function ofExistingFields(schema: WorksheetSchema, inputs: DraftInputs): DraftInputs {
  return Object.fromEntries(Object.entries(inputs).filter(([fieldId]) => schema.byKey.has(fieldId)));
}

/**
 * Saves a draft: each value checked by its type (10002 naming the field), members and departments
 * checked to exist, required fields not yet. The box holds at most `DRAFT_LIMIT` drafts; one more is
 * 430018. The box is locked while it is counted, so concurrent creations cannot pass the limit.
 */
export async function createDraft(ctx: ServiceContext, schema: WorksheetSchema, fields: FieldValueInput[]): Promise<{ id: string }> {
  const refs = emptyReferenceSet();
  const inputs = checkDraftInputs(schema, fields, ctx.timeZone, refs);
  const box = boxOf(ctx, schema);
  const now = ctx.now();
  const id = newRowId();
  await inTransaction(ctx.db, async (trx) => {
    await checkReferencesExist(trx, ctx.actor.organizationId, refs);
    await repository.claimBox(trx, box, now);
    if ((await repository.countDrafts(trx, box)) >= ctx.draftLimit) {
      throw new AppError(
        ErrorCode.DraftLimitExceeded,
        400,
        `the draft box is full: at most ${ctx.draftLimit} drafts per user in a worksheet; submit or delete one first`,
      );
    }
    await repository.insertDraft(trx, { id, app_id: schema.appId, worksheet_id: schema.id, created_by: box.createdBy, created_at: now, updated_at: now, inputs: JSON.stringify(inputs) });
  });
  return { id };
}

/** Whether the id is a draft of the caller in this worksheet. */
export async function isOwnDraft(ctx: ServiceContext, schema: WorksheetSchema, rowId: string): Promise<boolean> {
  return (await repository.readDraft(ctx, boxOf(ctx, schema), rowId)) !== undefined;
}

/** One draft of the caller in the shape a record reads in, marked `isDraft: true`; 10007 when there is none. */
export async function readDraft(ctx: ServiceContext, schema: WorksheetSchema, fields: FieldMeta[], rowId: string, request: RowShapeRequest): Promise<RowPayload> {
  const draft = await repository.readDraft(ctx, boxOf(ctx, schema), rowId);
  if (!draft) throw notFound(rowId);
  const [record] = await presentDrafts(ctx, schema, fields, [draft], rowShapeFor(ctx.profile, request));
  return record;
}

/** Changes a draft: the sent fields' inputs replace those it kept (checked as on create); the others stay. */
export async function updateDraft(ctx: ServiceContext, schema: WorksheetSchema, rowId: string, fields: FieldValueInput[]): Promise<{ id: string }> {
  const refs = emptyReferenceSet();
  const changes = checkDraftInputs(schema, fields, ctx.timeZone, refs);
  const box = boxOf(ctx, schema);
  await inTransaction(ctx.db, async (trx) => {
    await checkReferencesExist(trx, ctx.actor.organizationId, refs);
    // Written first, so that the draft is locked while its inputs are merged: concurrent edits both land.
    if (!(await repository.touchDraft(trx, box, rowId, ctx.now()))) throw notFound(rowId);
    const inputs = { ...ofExistingFields(schema, parseInputs(await repository.lockedInputs(trx, box, rowId))), ...changes };
    await repository.replaceInputs(trx, box, rowId, JSON.stringify(inputs));
  });
  return { id: rowId };
}

/** Discards a draft for good (drafts have no recycle bin); returns whether the caller had it. */
export async function discardDraft(ctx: ServiceContext, schema: WorksheetSchema, rowId: string): Promise<boolean> {
  return repository.deleteDraft(ctx.db, boxOf(ctx, schema), rowId);
}

/**
 * Makes a draft of the caller a record with the same id: its inputs are checked as a create checks
 * them (required fields, types, members, related records, unique values), then inserted through the
 * record writer (counted, numbered, computed, logged, triggering workflows) and the draft removed,
 * in one transaction. On any error nothing changes: the draft stays, to be corrected.
 */
export async function submitDraft(ctx: ServiceContext, worksheetKey: string, rowId: string): Promise<{ id: string }> {
  const schema = await loadSchema(ctx, worksheetKey);
  const box = boxOf(ctx, schema);
  await inTransaction(ctx.db, async (trx) => {
    // Taken out first, which locks it: of two submits of one draft, the second finds it gone (10007)
    // instead of a taken id, and an edit committed meanwhile is what gets submitted.
    const inputs = await repository.takeDraft(trx, box, rowId);
    if (inputs === undefined) throw notFound(rowId);
    const refs = emptyReferenceSet();
    const values = encodeValues(schema, draftFieldItems(schema, parseInputs(inputs)), '', ctx.timeZone, 'create', refs);
    await writer.insertRecords({ ...ctx, db: trx }, schema, [values], refs, { ids: [rowId] });
  });
  return { id: rowId };
}

/** Whether a list request narrows or orders, which a draft box cannot: its drafts are not in the row table. */
function refuseQueryOfDrafts(input: ListInput): void {
  const sorted = (input.sorts ?? []).some((sort) => sort.field.trim() !== '');
  const filtered = input.filter !== undefined && input.filter !== null;
  const searched = (input.search ?? '').trim() !== '';
  if (sorted || filtered || searched) {
    throw AppError.invalidParameters('isDraft: the draft box is listed whole, in creation order: send no filter, search or sorts with it');
  }
}

/**
 * The caller's draft box in a worksheet, a page at a time, in creation order: `{rows, total,
 * pageIndex, pageSize}` as a list answers, each row marked `isDraft: true` (not in `md` tables).
 */
export async function listDrafts(ctx: ServiceContext, schema: WorksheetSchema, fields: FieldMeta[], input: ListInput) {
  refuseQueryOfDrafts(input);
  const pageSize = input.pageSize ?? 50;
  const pageIndex = input.pageIndex ?? 1;
  const box = boxOf(ctx, schema);
  const [drafts, total] = await Promise.all([
    repository.readDrafts(ctx, box, pageSize, (pageIndex - 1) * pageSize),
    input.includeTotalCount === false ? undefined : repository.readCount(ctx, box),
  ]);
  const page = { ...(total === undefined ? {} : { total }), pageIndex, pageSize };
  if (input.responseFormat === 'md') {
    const systemFields = input.includeSystemFields === true;
    const rows = await presentDrafts(ctx, schema, fields, drafts, { kind: 'flat', keyByFieldId: true, systemFields });
    return { rows: recordsMarkdown(fields, rows, systemFields), ...page };
  }
  return { rows: await presentDrafts(ctx, schema, fields, drafts, rowShapeFor(ctx.profile, input)), ...page };
}
