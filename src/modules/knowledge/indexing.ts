import { systemActor } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import type { EmbedderSpec } from '../../knowledge/embedder.js';
import type { Embedder } from '../../knowledge/embedder.js';
import { embedderFor } from '../../knowledge/embedders/registry.js';
import type { PassageInput } from '../../knowledge/passage.js';
import { recordPassageTexts } from '../../knowledge/record-passages.js';
import { passageStore } from '../../knowledge/store/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { recordTexts } from '../records/index.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import * as repository from './repository.js';

/**
 * Record passages: built from the records as they are in a transaction, replacing the ones kept.
 * The full indexing of a new source (`index-job.ts`) and the re-indexing of written records
 * (`reindex-job.ts`) both come here.
 */

/** A source with its base's embedder: what indexing a record needs. */
export type IndexedSource = repository.KnowledgeSource & { embedder: EmbedderSpec };

/** The worksheet, or null when it was deleted (its records' passages then go). */
async function schemaOrNull(ctx: ServiceContext, worksheetId: string): Promise<WorksheetSchema | null> {
  try {
    return await loadSchema(ctx, worksheetId);
  } catch (error) {
    if (error instanceof AppError && (error.code === ErrorCode.WorksheetNotFound || error.code === ErrorCode.WorksheetNotInApp)) return null;
    throw error;
  }
}

/** Embeds texts in batches of the embedder's `maxBatch`. */
export async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += embedder.maxBatch) vectors.push(...(await embedder.embed(texts.slice(i, i + embedder.maxBatch))));
  return vectors;
}

/** The passages of one source for the records whose field texts are given. */
async function passagesOf(ctx: ServiceContext, schema: WorksheetSchema, source: IndexedSource, texts: Map<string, Map<string, string>>, rowIds: readonly string[]): Promise<PassageInput[]> {
  // Fields deleted since the source was made are skipped; the rest keep the source's order.
  const fields = source.fieldIds.flatMap((id) => {
    const field = schema.byKey.get(id);
    return field && field.id === id && field.fieldType.storage !== 'none' ? [field] : [];
  });
  const titleField = fields.find((field) => field.isTitle)?.id ?? null;
  const texted = rowIds.flatMap((rowId) => {
    const values = texts.get(rowId);
    if (!values) return [];
    const cells = fields.map((field) => ({ fieldId: field.id, name: field.name, text: values.get(field.id) ?? '' }));
    return recordPassageTexts(cells, titleField).map((text) => ({ rowId, text }));
  });
  const vectors = await embedAll(
    embedderFor(source.embedder, { embeddings: ctx.embeddings ?? null }),
    texted.map(({ text }) => text.content),
  );
  return texted.map(({ rowId, text }, i) => ({
    source: { type: 'record', knowledgeId: source.knowledgeId, sourceId: source.id, worksheetId: schema.id, rowId, fieldIds: text.fieldIds, title: text.title, chunkIndex: text.chunkIndex },
    content: text.content,
    keywordText: text.keywordText,
    vector: vectors[i]!,
  }));
}

/**
 * Builds the passages of these records for each of the sources (all of one worksheet) and
 * replaces the ones kept; a record that is not live any more loses its passages.
 */
export async function indexRecords(ctx: ServiceContext, trx: Executor, sources: readonly IndexedSource[], rowIds: readonly string[]): Promise<void> {
  if (sources.length === 0 || rowIds.length === 0) return;
  // Passages hold what every reader of the base might be shown (searches filter per caller): they
  // are read as the application's own work, whatever the rights of whoever wrote the records.
  const actor = systemActor({ job: 'knowledge-index', appId: ctx.actor.appId, organizationId: ctx.actor.organizationId, accountId: ctx.actor.accountId, writes: false });
  const inTrx = { ...ctx, actor, db: trx };
  const schema = await schemaOrNull(inTrx, sources[0]!.worksheetId);
  const store = passageStore(ctx.dialect);
  const owners = (source: IndexedSource) => rowIds.map((rowId) => ({ knowledgeId: source.knowledgeId, sourceId: source.id, rowId }));
  if (!schema) {
    for (const source of sources) await store.replace(trx, owners(source), []);
    return;
  }
  const wanted = new Set(sources.flatMap((source) => source.fieldIds));
  const fields = schema.fields.filter((field) => wanted.has(field.id) && field.fieldType.storage !== 'none');
  const texts = await recordTexts(inTrx, schema, fields, rowIds);
  for (const source of sources) await store.replace(trx, owners(source), await passagesOf(ctx, schema, source, texts, rowIds));
}
