import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import { inTransaction, onCommit } from '../../db/transaction.js';
import { announceJobs, enqueueJobs } from '../../jobs/index.js';
import { lockBasesOfApp, refreshBaseStatus } from '../../knowledge/base-status.js';
import { forgetIndexedWorksheets } from '../../knowledge/indexed-worksheets.js';
import { indexSourceJob } from '../../knowledge/index-source-job.js';
import { passageStore } from '../../knowledge/store/index.js';
import { containsText } from '../../query/index.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import { chosenEmbedder } from './embedder-choice.js';
import { documentBlobKey } from './document-job.js';
import * as documents from './document-repository.js';
import { changeEmbedder } from './reembed-job.js';
import * as repository from './repository.js';
import type { KnowledgeBase, KnowledgeSource } from './repository.js';

/** What create and update take; on update, keys left out stay as they are, and `sources` replaces the list. */
export interface BaseInput {
  name?: string;
  description?: string;
  sources?: Array<{ type?: string; worksheetId?: string; fieldIds?: string[] }>;
  /** Which embedder: `"builtin"`, `"openai-compatible"` or `{kind, model?, dimensions?}` (`embedder-choice.ts`). */
  embedder?: unknown;
}

export interface ListInput {
  pageIndex?: number;
  pageSize?: number;
  keyword?: string;
}

const MAX_NAME = 100;
const MAX_DESCRIPTION = 2000;
export const MAX_SOURCES = 20;
const MAX_PAGE_SIZE = 100;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw AppError.invalidParameters('name is required');
  if (name.trim().length > MAX_NAME) throw AppError.invalidValue(`name: at most ${MAX_NAME} characters`);
  return name.trim();
}

function checkDescription(description: string | undefined): string {
  const text = (description ?? '').trim();
  if (text.length > MAX_DESCRIPTION) throw AppError.invalidValue(`description: at most ${MAX_DESCRIPTION} characters`);
  return text;
}

/** The worksheet a source names, 10002 naming it when this application has none such. */
async function sourceWorksheet(ctx: ServiceContext, worksheetId: string, where: string): Promise<WorksheetSchema> {
  try {
    return await loadSchema(ctx, worksheetId);
  } catch (error) {
    if (error instanceof AppError && error.httpStatus === 404) throw AppError.invalidValue(`${where}.worksheetId: no worksheet "${worksheetId.slice(0, 80)}" in this application`);
    throw error;
  }
}

/** The sources asked for, checked: worksheets of this application, each once, with fields (by id or alias) that hold values. */
async function checkSources(ctx: ServiceContext, input: NonNullable<BaseInput['sources']>): Promise<Array<{ worksheetId: string; fieldIds: string[] }>> {
  if (input.length > MAX_SOURCES) throw AppError.invalidValue(`sources: at most ${MAX_SOURCES}, got ${input.length}`);
  const checked: Array<{ worksheetId: string; fieldIds: string[] }> = [];
  for (const [i, source] of input.entries()) {
    const where = `sources[${i}]`;
    if ((source.type ?? 'worksheet') !== 'worksheet') throw AppError.invalidValue(`${where}.type: "worksheet" is the one source type here (documents are added with POST …/knowledge/{id}/documents), got ${JSON.stringify(String(source.type).slice(0, 30))}`);
    if (!source.worksheetId?.trim()) throw AppError.invalidParameters(`${where}.worksheetId is required`);
    if (!source.fieldIds || source.fieldIds.length === 0) throw AppError.invalidParameters(`${where}.fieldIds is required: the fields whose values are indexed`);
    const schema = await sourceWorksheet(ctx, source.worksheetId.trim(), where);
    if (checked.some((c) => c.worksheetId === schema.id)) throw AppError.invalidValue(`${where}.worksheetId: the worksheet "${schema.name}" is already a source; name all its fields in one source`);
    const fieldIds: string[] = [];
    for (const [j, key] of source.fieldIds.entries()) {
      const field = schema.byKey.get(key);
      if (!field) throw AppError.invalidValue(`${where}.fieldIds[${j}]: no field "${String(key).slice(0, 80)}" in the worksheet "${schema.name}"`);
      if (field.fieldType.storage === 'none') throw AppError.invalidValue(`${where}.fieldIds[${j}]: "${field.name}" is a ${field.fieldType.name} field, which holds no value to index`);
      if (!fieldIds.includes(field.id)) fieldIds.push(field.id);
    }
    checked.push({ worksheetId: schema.id, fieldIds });
  }
  return checked;
}

/** The record writer's hook caches which worksheets are indexed: a change to sources forgets them once it commits. */
function forgetSourcesOnCommit(trx: Executor, sources: ReadonlyArray<{ worksheetId: string }>): void {
  if (sources.length > 0) onCommit(trx, () => forgetIndexedWorksheets(sources.map((s) => s.worksheetId)));
}

/** New sources of a base, queued for their full indexing in `trx` (the job starts when it commits). */
async function addSources(ctx: ServiceContext, trx: Executor, knowledgeId: string, wanted: Array<{ worksheetId: string; fieldIds: string[] }>): Promise<void> {
  if (wanted.length === 0) return;
  const now = ctx.now();
  const sources: KnowledgeSource[] = wanted.map((w) => ({ id: newObjectId(), knowledgeId, worksheetId: w.worksheetId, fieldIds: w.fieldIds, status: 'queued', progress: 0, total: 0, error: null, createdAt: now }));
  await repository.insertSources(trx, sources);
  await enqueueJobs(trx, sources.map((s) => indexSourceJob(s.id)), now);
  forgetSourcesOnCommit(trx, sources);
  onCommit(trx, announceJobs);
}

/** The base of this application, locked for the rest of `trx`; 10007 when there is none such. */
export async function claimedBase(ctx: ServiceContext, trx: Executor, id: string): Promise<KnowledgeBase> {
  const base = await repository.claimBase(trx, ctx.actor.appId, id);
  if (!base) throw AppError.notFound(`knowledge base "${id.slice(0, 80)}" does not exist in this application`);
  return base;
}

/** Bases as the wire shows them: their sources, document and passage counts. */
async function present(db: Executor, ctx: ServiceContext, bases: KnowledgeBase[]) {
  const ids = bases.map((b) => b.id);
  const [sources, documents, chunks] = await Promise.all([repository.sourcesOfBases(db, ids), repository.documentCounts(db, ids), passageStore(ctx.dialect).countByKnowledgeBase(db, ids)]);
  return bases.map((base) => ({
    id: base.id,
    name: base.name,
    description: base.description,
    sources: sources
      .filter((s) => s.knowledgeId === base.id)
      .map((s) => ({ type: 'worksheet' as const, worksheetId: s.worksheetId, fieldIds: s.fieldIds, status: s.status, progress: s.progress, total: s.total, ...(s.error ? { error: s.error } : {}) })),
    documentCount: documents.get(base.id) ?? 0,
    chunkCount: chunks.get(base.id) ?? 0,
    status: base.status,
    ...(base.error ? { error: base.error } : {}),
    embedder: base.embedder,
    ...(base.nextEmbedder ? { reembedding: { embedder: base.nextEmbedder, progress: Math.min(base.reembedProgress, base.reembedTotal), total: base.reembedTotal } } : {}),
    _createdAt: new Date(base.createdAt).toISOString(),
    _updatedAt: new Date(base.updatedAt).toISOString(),
  }));
}

/** `POST /v3/app/knowledge`: a new base; its worksheet sources are indexed by a job. */
export async function createKnowledgeBase(ctx: ServiceContext, input: BaseInput): Promise<{ id: string }> {
  const name = checkName(input.name);
  const description = checkDescription(input.description);
  const sources = await checkSources(ctx, input.sources ?? []);
  // The one chosen, else the server's default; its vector size learnt first when it is an endpoint's.
  const embedder = await chosenEmbedder(ctx, input.embedder);
  const now = ctx.now();
  const base: repository.NewKnowledgeBase = { id: newObjectId(), appId: ctx.actor.appId, name, description, embedder, status: sources.length > 0 ? 'indexing' : 'ready', error: null, createdBy: ctx.actor.accountId, createdAt: now, updatedAt: now };
  await inTransaction(ctx.db, async (trx) => {
    await repository.insertBase(trx, base);
    await addSources(ctx, trx, base.id, sources);
  });
  return { id: base.id };
}

export async function getKnowledgeBase(ctx: ServiceContext, id: string) {
  const [base] = await repository.findBases(ctx.db, ctx.actor.appId, [id]);
  if (!base) throw AppError.notFound(`knowledge base "${id.slice(0, 80)}" does not exist in this application`);
  return (await present(ctx.db, ctx, [base]))[0]!;
}

/**
 * `PATCH /v3/app/knowledge/{id}`: name and description as sent; `sources`, when sent, is the whole
 * list: a worksheet kept with the same fields stays as it is, one whose fields changed is indexed
 * again, one left out loses its passages. `embedder`, when another than the base's, re-embeds the
 * base as a job (`reembed-job.ts`); the same one starts nothing.
 */
export async function updateKnowledgeBase(ctx: ServiceContext, id: string, input: BaseInput) {
  const name = input.name === undefined ? undefined : checkName(input.name);
  const description = input.description === undefined ? undefined : checkDescription(input.description);
  const wanted = input.sources === undefined ? undefined : await checkSources(ctx, input.sources);
  const embedder = input.embedder === undefined ? undefined : await chosenEmbedder(ctx, input.embedder);
  await inTransaction(ctx.db, async (trx) => {
    const base = await claimedBase(ctx, trx, id);
    if (wanted) {
      const current = await repository.sourcesOfBases(trx, [base.id]);
      const same = (s: KnowledgeSource) => wanted.some((w) => w.worksheetId === s.worksheetId && JSON.stringify(w.fieldIds) === JSON.stringify(s.fieldIds));
      const dropped = current.filter((s) => !same(s));
      const store = passageStore(ctx.dialect);
      for (const source of dropped) await store.removeAll(trx, base.id, source.id);
      await repository.deleteSources(
        trx,
        dropped.map((s) => s.id),
      );
      forgetSourcesOnCommit(trx, dropped);
      const added = wanted.filter((w) => !current.some((s) => same(s) && s.worksheetId === w.worksheetId));
      await addSources(ctx, trx, base.id, added);
      await refreshBaseStatus(trx, base);
    }
    if (embedder) await changeEmbedder(ctx, trx, base, embedder);
    await repository.updateBase(trx, base.id, { name, description, updatedAt: ctx.now() });
  });
  return getKnowledgeBase(ctx, id);
}

/**
 * Removes a base (locked or being deleted with its application in `trx`) with its sources,
 * documents and passages, and from the chatbots answering from it; its documents' kept bytes (those still waiting for their ingestion)
 * leave the files store once `trx` commits.
 */
async function removeBase(ctx: ServiceContext, trx: Executor, id: string): Promise<void> {
  forgetSourcesOnCommit(trx, await repository.sourcesOfBases(trx, [id]));
  await repository.forgetBaseInChatbots(trx, ctx.actor.appId, id);
  const documentIds = await documents.documentIdsOfBase(trx, id);
  await passageStore(ctx.dialect).removeAll(trx, id);
  await repository.deleteBase(trx, id);
  onCommit(trx, () => {
    for (const documentId of documentIds) void ctx.files.store.remove(documentBlobKey(documentId)).catch(() => undefined);
  });
}

/** `DELETE /v3/app/knowledge/{id}`: the base, its sources, documents (their kept bytes too) and passages. */
export async function deleteKnowledgeBase(ctx: ServiceContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => removeBase(ctx, trx, (await claimedBase(ctx, trx, id)).id));
}

/** `POST /v3/app/knowledge/list`: a page of the application's bases, newest first, `keyword` matching their names. */
export async function listKnowledgeBases(ctx: ServiceContext, input: ListInput) {
  const pageIndex = input.pageIndex ?? 1;
  const pageSize = input.pageSize ?? 20;
  if (!Number.isInteger(pageIndex) || pageIndex < 1) throw AppError.invalidValue(`pageIndex: a whole number from 1, got ${pageIndex}`);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw AppError.invalidValue(`pageSize: a whole number from 1 to ${MAX_PAGE_SIZE}, got ${pageSize}`);
  const keyword = input.keyword?.trim() ?? '';
  const matches = keyword === '' ? null : containsText(ctx.dialect, sql.ref('name'), keyword, 'keyword');
  const { bases, total } = await repository.pageOfBases(ctx.db, ctx.actor.appId, matches, pageSize, (pageIndex - 1) * pageSize);
  return { knowledgeBases: await present(ctx.db, ctx, bases), total };
}

/** Deletes every base of an application as `DELETE …/knowledge/{id}` does, in the application's deletion (`trx`). */
export async function deleteKnowledgeOfApp(ctx: ServiceContext, trx: Executor, appId: string): Promise<void> {
  // Every base's lock first: removing base after base would hold the change log's lock while
  // waiting for a base a writer holds, the writer waiting for the log.
  await lockBasesOfApp(trx, appId);
  for (const id of await repository.baseIdsOfApp(trx, appId)) await removeBase(ctx, trx, id);
}
