import type { FieldMeta } from '../../../fields/field-type.js';
import { noReferences } from '../../../fields/no-references.js';
import { relatedSourceOf } from '../../../fields/computed/related-config.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import { loadSchema } from '../../worksheets/index.js';
import type { StoredRow } from '../presenter.js';
import { linkSideOf } from './link-side.js';
import { shownLinks } from './link-repository.js';
import { rowTitles } from '../repository.js';

const NO_REFERENCES = noReferences();

/** A record's title as text, from its title field's stored (driver) value and its creation time (auto numbers compose with it). */
function titleText(ctx: ServiceContext, title: FieldMeta, raw: unknown, createdAt: unknown): string {
  const stored = ctx.dialect.decode(title.fieldType.column!, raw);
  return stored === null ? '' : String(title.fieldType.read(stored, title, { ...NO_REFERENCES, timeZone: ctx.timeZone }, { createdAt: Number(createdAt) }));
}

/**
 * Reads the relation values of a page of records: for each relation field shown, one statement
 * finds the live related records of every record of the page, in link order, with their titles.
 * Each row gets the list of related ids in place of a stored value (what the relation type reads);
 * the titles are returned by related record id.
 */
export async function readLinkedValues(ctx: ServiceContext, fields: FieldMeta[], rows: StoredRow[]): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const linkFields = fields.filter((f) => f.fieldType.storage === 'links');
  if (linkFields.length === 0 || rows.length === 0) return titles;
  const ids = rows.map((row) => row.id);
  for (const field of linkFields) {
    const side = linkSideOf(field);
    const related = await loadSchema(ctx, side.relatedWorksheetId);
    const title = related.fields.find((f) => f.isTitle);
    const titleColumn = title?.fieldType.column ? title.id : null;
    const byRow = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const link of await shownLinks(ctx, side, titleColumn, ids)) {
      byRow.get(link.own)!.push(link.other);
      if (title && titleColumn && !titles.has(link.other)) titles.set(link.other, titleText(ctx, title, link.title, link.created));
    }
    for (const row of rows) row[field.id] = byRow.get(row.id);
  }
  return titles;
}

/**
 * The source fields of the lookups a page shows (fields of the related worksheets, from cached
 * schemas), so that each looked-up value reads as its source field reads it.
 */
export async function lookupSources(ctx: ServiceContext, fields: FieldMeta[]): Promise<Map<string, FieldMeta>> {
  const sources = new Map<string, FieldMeta>();
  for (const field of fields) {
    const computed = field.fieldType.computed;
    if (computed?.kind !== 'related' || computed.aggregation(field) !== 'lookup') continue;
    const { relationField, sourceField } = relatedSourceOf(field);
    const relation = (await loadSchema(ctx, field.worksheetId)).byKey.get(relationField);
    if (!relation) continue;
    const source = (await loadSchema(ctx, linkSideOf(relation).relatedWorksheetId)).byKey.get(sourceField);
    if (source) sources.set(source.id, source);
  }
  return sources;
}

/**
 * Titles of the records that fields pointing at one record (cascading selects) hold in a page of
 * rows: one statement per worksheet pointed at. Added to `titles` by record id.
 */
export async function readPointedTitles(ctx: ServiceContext, fields: FieldMeta[], rows: StoredRow[], titles: Map<string, string>): Promise<void> {
  const byWorksheet = new Map<string, Set<string>>();
  for (const field of fields) {
    if (field.fieldType.pointsAt !== 'record') continue;
    const worksheetId = String(field.config.dataSource);
    for (const row of rows) {
      const id = row[field.id];
      if (typeof id !== 'string') continue;
      if (!byWorksheet.has(worksheetId)) byWorksheet.set(worksheetId, new Set());
      byWorksheet.get(worksheetId)!.add(id);
    }
  }
  for (const [worksheetId, ids] of byWorksheet) await addTitles(ctx, worksheetId, [...ids], titles, false);
}

/**
 * Adds to `titles` the titles of these records of a worksheet: live ones, and with `evenDeleted`
 * those in the recycle bin too (a record log names records that may have gone since).
 */
export async function addTitles(ctx: ServiceContext, worksheetId: string, ids: string[], titles: Map<string, string>, evenDeleted: boolean): Promise<void> {
  if (ids.length === 0) return;
  const schema = await loadSchema(ctx, worksheetId);
  const title = schema.fields.find((f) => f.isTitle);
  if (!title?.fieldType.column) return;
  for (const row of await rowTitles(ctx, schema.table, title.id, ids, evenDeleted)) titles.set(String(row.id), titleText(ctx, title, row.title, row.created));
}
