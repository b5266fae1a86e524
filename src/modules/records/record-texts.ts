import type { FieldMeta } from '../../fields/field-type.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { WorksheetSchema } from '../worksheets/index.js';
import { presentRows, selectColumns } from './present-rows.js';
import { cellText } from './record-markdown.js';
import * as repository from './repository.js';

/** Ids are read in pieces of this many (well under every engine's parameter limit). */
const PIECE = 500;

/**
 * The readable text of some fields of live records (`cellText` of each value as a read shows it:
 * options by their text, members by name, related records by title), by record id and field id;
 * ids of records that are not live are absent. Read in `ctx.db`, so that inside a transaction the
 * transaction's own writes are seen. For knowledge bases, which index records as text; no data
 * scope applies (the caller indexes for everyone, and searches filter by permissions).
 * @example const texts = await recordTexts(ctx, schema, [titleField], ['0193…']) // Map { '0193…' => Map { 'f1' => 'ACME' } }
 */
export async function recordTexts(ctx: ServiceContext, schema: WorksheetSchema, fields: FieldMeta[], rowIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const texts = new Map<string, Map<string, string>>();
  const columns = selectColumns(fields).filter((column) => column !== 'id');
  for (let i = 0; i < rowIds.length; i += PIECE) {
    const raw = await repository.liveValues(ctx.db, schema.table, rowIds.slice(i, i + PIECE) as string[], columns);
    const rows = (await presentRows(ctx, fields, [...raw.values()], { kind: 'flat', keyByFieldId: true, systemFields: false })) as Array<Record<string, unknown>>;
    for (const row of rows) texts.set(String(row.id), new Map(fields.map((field) => [field.id, cellText(row[field.id])])));
  }
  return texts;
}

/** Up to `limit` ids of live records after `afterId` (from the first when null), in id order: pages of a full indexing. */
export async function liveIdsAfter(ctx: ServiceContext, schema: WorksheetSchema, afterId: string | null, limit: number): Promise<string[]> {
  return repository.liveIdsAfter(ctx.db, schema.table, afterId, limit);
}

/** How many live records a worksheet has (read in `ctx.db`). */
export async function liveRecordCount(ctx: ServiceContext, schema: WorksheetSchema): Promise<number> {
  return repository.countLive(ctx.db, schema.table);
}
