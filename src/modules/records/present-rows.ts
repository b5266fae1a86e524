import type { FieldMeta } from '../../fields/field-type.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { lookupSources, readLinkedValues, readPointedTitles } from './links/linked-values.js';
import { collectReferences, decodeRow } from './presenter.js';
import { resolveReferences } from './references.js';
import { rowPresenter, type RowShape } from './row-shape.js';
import type { RowTextWriter } from './row-json.js';
import type { JsonText } from '../../shared/json-text.js';
import { PROCESS_SELECT } from './process-presenter.js';

/**
 * The columns a read selects: the record's system columns and the shown fields' columns, by name
 * (never `*`); the process fields only for rows that show them (flat, with system fields).
 */
export function selectColumns(fields: FieldMeta[], shape?: RowShape): string[] {
  const process = shape?.kind === 'flat' && shape.systemFields ? PROCESS_SELECT : [];
  return ['id', '_created_by', '_owner', '_updated_by', '_created_at', '_updated_at', '_autoid', ...process, ...fields.filter((f) => f.fieldType.column).map((f) => f.id)];
}

/** What a page's rows refer to, resolved once for the page, and the time the page is read at. */
async function resolvePage(ctx: ServiceContext, fields: FieldMeta[], raw: Array<Record<string, unknown>>) {
  const rows = raw.map((r) => decodeRow(ctx.dialect, fields, r));
  const [refs, titles, sources] = await Promise.all([resolveReferences(ctx.db, collectReferences(fields, rows)), readLinkedValues(ctx, fields, rows), lookupSources(ctx, fields)]);
  await readPointedTitles(ctx, fields, rows, titles);
  refs.records = titles;
  refs.lookupSources = sources;
  const now = ctx.now();
  refs.fileUrl = (fileId) => ctx.files.links.linkFor(fileId, now);
  refs.timeZone = ctx.timeZone;
  return { rows, refs, now };
}

/**
 * A page of rows as the wire shows them: values decoded, the members, departments and related
 * records they refer to resolved once for the page (one statement per kind and relation field).
 */
export async function presentRows(ctx: ServiceContext, fields: FieldMeta[], raw: Array<Record<string, unknown>>, shape: RowShape) {
  const { rows, refs, now } = await resolvePage(ctx, fields, raw);
  const present = rowPresenter(shape, fields, now);
  return rows.map((row) => present(row, refs));
}

/**
 * A page of rows each as its JSON text (`row-json.ts`), for a route that sends them as they are:
 * the same bytes `presentRows` and the row schema's serializer would make.
 */
export async function presentRowsAsText(ctx: ServiceContext, fields: FieldMeta[], raw: Array<Record<string, unknown>>, write: RowTextWriter): Promise<JsonText[]> {
  const { rows, refs, now } = await resolvePage(ctx, fields, raw);
  return rows.map((row) => write(row, refs, now));
}
