import type { FieldMeta } from '../../../fields/field-type.js';
import type { LinkEdit } from '../../../fields/types/relation.js';
import { AppError } from '../../../shared/app-error.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { linkSideOf } from '../links/link-side.js';
import { addTitles, lookupSources, readPointedTitles } from '../links/linked-values.js';
import { collectReferences, type StoredRow } from '../presenter.js';
import { resolveReferences } from '../references.js';
import { flatKeys, rowPresenter, type RowPayload, type RowShape } from '../row-shape.js';
import { emptyReferenceSet, encodeValues } from '../value-codec.js';
import { parseInputs, shownAsSent, type DraftInputs } from './inputs.js';
import type { DraftRow } from './repository.js';

/**
 * The stored value a draft's input would give its field, for reading: a relation's ids as written,
 * other values as a create would store them. An input the schema no longer accepts (an option
 * removed, the type changed) reads as empty; the submit names it.
 */
function readableValue(schema: WorksheetSchema, field: FieldMeta, input: DraftInputs[string], timeZone: string): unknown {
  let stored: unknown;
  try {
    stored = encodeValues(schema, [{ id: field.id, value: input.value, type: input.type }], '', timeZone, 'draft', emptyReferenceSet()).get(field.id) ?? null;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  if (field.fieldType.storage !== 'links') return stored;
  const edit = stored as LinkEdit | null;
  return edit === null || edit.mode === 'remove' ? [] : edit.ids;
}

/** A draft as a stored row: its creator in every system user, no record number; computed values empty. */
function draftRow(schema: WorksheetSchema, fields: FieldMeta[], draft: DraftRow, inputs: DraftInputs, timeZone: string): StoredRow {
  const row: StoredRow = {
    id: draft.id,
    _created_by: draft.created_by,
    _owner: draft.created_by,
    _updated_by: draft.created_by,
    _created_at: Number(draft.created_at),
    _updated_at: Number(draft.updated_at),
    _autoid: 0,
  };
  for (const field of fields) {
    const input = inputs[field.id];
    row[field.id] = input === undefined || shownAsSent(field) ? null : readableValue(schema, field, input, timeZone);
  }
  return row;
}

/** Titles of the records that drafts' relations and cascading selects name, by record id. */
async function recordTitles(ctx: ServiceContext, fields: FieldMeta[], rows: StoredRow[]): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  for (const field of fields) {
    if (field.fieldType.storage !== 'links' || field.fieldType.owns) continue;
    const ids = [...new Set(rows.flatMap((row) => (row[field.id] as string[] | null) ?? []))];
    await addTitles(ctx, linkSideOf(field).relatedWorksheetId, ids, titles, false);
  }
  await readPointedTitles(ctx, fields, rows, titles);
  return titles;
}

/**
 * Drafts in the shape records read in (`row-shape.ts`), each marked `isDraft: true`. Values read as
 * the record would read once submitted, except: computed values and auto numbers are empty (they are
 * given on submit), flat rows carry no `autoid`, and attachments and sub-table rows are shown as they
 * were sent (their files and child records are made on submit).
 */
export async function presentDrafts(ctx: ServiceContext, schema: WorksheetSchema, fields: FieldMeta[], drafts: DraftRow[], shape: RowShape): Promise<RowPayload[]> {
  const inputs = drafts.map((draft) => parseInputs(draft.inputs));
  const rows = drafts.map((draft, i) => draftRow(schema, fields, draft, inputs[i], ctx.timeZone));
  const [refs, titles, sources] = await Promise.all([resolveReferences(ctx.db, collectReferences(fields, rows)), recordTitles(ctx, fields, rows), lookupSources(ctx, fields)]);
  refs.records = titles;
  refs.lookupSources = sources;
  refs.timeZone = ctx.timeZone;
  const present = rowPresenter(shape, fields, ctx.now());
  const keys = shape.kind === 'flat' ? flatKeys(fields, shape.keyByFieldId) : [];
  return rows.map((row, r) => {
    const payload = present(row, refs) as Record<string, unknown>;
    fields.forEach((field, i) => {
      const input = inputs[r][field.id];
      if (input === undefined || !shownAsSent(field)) return;
      if (shape.kind === 'flat') payload[keys[i]] = input.value;
      else (payload.fields as Array<{ value: unknown }>)[i].value = input.value;
    });
    if (shape.kind === 'flat') {
      delete payload.autoid;
      // A field aliased `isDraft` gives way to the marker: it is keyed by its field id instead.
      const clash = keys.indexOf('isDraft');
      if (clash >= 0) payload[fields[clash].id] = payload.isDraft;
    }
    payload.isDraft = true;
    return payload;
  });
}
