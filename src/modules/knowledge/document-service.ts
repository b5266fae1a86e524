import type { Executor } from '../../db/connection.js';
import { inTransaction, onCommit } from '../../db/transaction.js';
import { fetchRemote } from '../../files/remote-fetch.js';
import { announceJobs, enqueueJobs } from '../../jobs/index.js';
import { titleFromName } from '../../knowledge/documents/document.js';
import { refuseOversized } from '../../knowledge/documents/limits.js';
import { documentMediaType } from '../../knowledge/documents/media-type.js';
import { refreshBaseStatus } from '../../knowledge/base-status.js';
import { passageStore } from '../../knowledge/store/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { documentBlobKey, ingestDocumentJob } from './document-job.js';
import * as documents from './document-repository.js';
import * as repository from './repository.js';
import type { KnowledgeBase } from './repository.js';
import { claimedBase } from './service.js';

/**
 * A knowledge base's documents: added from a URL (fetched now, by the attachments' rules), from
 * text sent in the request or from an upload (`document-upload.ts`), their bytes kept in the files
 * store (`documentBlobKey`) until the document is ready (a failed one keeps them, to be retried);
 * listed with their ingestion's state; retried when failed; deleted with their passages.
 */

export interface DocumentInput {
  url?: string;
  text?: string;
  title?: string;
  mediaType?: string;
}

/** An uploaded document: `read` takes it off the request once the base is known to exist. */
export interface DocumentUpload {
  read: () => Promise<DocumentBytes>;
}

const TEXT_TYPES = ['text/plain', 'text/markdown', 'text/html'];
const MAX_TITLE = 300;

/** The bytes of the document asked for, with what names it and its declared type. */
async function bytesOf(ctx: ServiceContext, input: DocumentInput): Promise<{ bytes: Buffer; name: string; declaredType: string | null; originUrl: string | null }> {
  if ((input.url === undefined) === (input.text === undefined)) throw AppError.invalidParameters('url or text is required (one of them): the document to add');
  if (input.url !== undefined) {
    const url = input.url.trim();
    if (url === '') throw AppError.invalidParameters('url is required: the address of the document');
    const fetched = await fetchRemote(url, fetchRules(ctx), 'url');
    return { bytes: fetched.bytes, name: url, declaredType: fetched.contentType ?? null, originUrl: url };
  }
  if (!input.title?.trim()) throw AppError.invalidParameters('title is required with text');
  const mediaType = input.mediaType ?? 'text/plain';
  if (!TEXT_TYPES.includes(mediaType)) throw AppError.invalidValue(`mediaType: one of ${TEXT_TYPES.join(', ')}, got ${JSON.stringify(mediaType.slice(0, 60))}`);
  if (input.text!.trim() === '') throw AppError.invalidValue('text: the document is empty');
  return { bytes: Buffer.from(input.text!, 'utf8'), name: input.title.trim(), declaredType: mediaType, originUrl: null };
}

/** The attachments' fetch rules, bounded by the documents' limit where that is the smaller. */
function fetchRules(ctx: ServiceContext) {
  const rules = ctx.files.limits.fetch;
  const most = ctx.documentMaxBytes;
  return most !== undefined && most < rules.maxBytes ? { ...rules, maxBytes: most, limitName: 'KNOWLEDGE_DOCUMENT_MAX_SIZE' } : rules;
}

/** A document's bytes as they arrived: from a request, a fetched URL or a file (the CLI). */
export interface DocumentBytes {
  bytes: Buffer;
  /** The file name or URL, as errors name the document. */
  name: string;
  declaredType: string | null;
  originUrl: string | null;
  /** The title the user gave; without one, the document's own (or its name) is taken when parsed. */
  title?: string;
}

async function checkBase(ctx: ServiceContext, knowledgeId: string): Promise<void> {
  const found = await repository.findBases(ctx.db, ctx.actor.appId, [knowledgeId]);
  if (found.length === 0) throw AppError.notFound(`knowledge base "${knowledgeId.slice(0, 80)}" does not exist in this application`);
}

/** `POST /v3/app/knowledge/{id}/documents`: the document queued, its ingestion job enqueued in the same transaction. */
export async function addDocument(ctx: ServiceContext, knowledgeId: string, input: DocumentInput | DocumentUpload): Promise<{ documentId: string; status: string }> {
  // The base is checked before any fetch or upload is read: a wrong id costs no transfer.
  await checkBase(ctx, knowledgeId);
  if ('read' in input) return addDocumentBytes(ctx, knowledgeId, await input.read());
  const given = input.title?.replace(/\s+/g, ' ').trim();
  return addDocumentBytes(ctx, knowledgeId, { ...(await bytesOf(ctx, input)), ...(given ? { title: given } : {}) });
}

/** Queues a document from its bytes (what `addDocument` and `tabularium knowledge ingest` share). */
export async function addDocumentBytes(ctx: ServiceContext, knowledgeId: string, source: DocumentBytes): Promise<{ documentId: string; status: string }> {
  const given = source.title?.replace(/\s+/g, ' ').trim();
  if (given && given.length > MAX_TITLE) throw AppError.invalidValue(`title: at most ${MAX_TITLE} characters`);
  // Refused now, with nothing kept, rather than by its job.
  if (ctx.documentMaxBytes !== undefined) refuseOversized(source.name, source.bytes.length, ctx.documentMaxBytes);
  const mediaType = documentMediaType({ name: source.name, declaredType: source.declaredType }, source.bytes);
  const now = ctx.now();
  const doc: documents.KnowledgeDocument = {
    id: newObjectId(),
    knowledgeId,
    title: given || titleFromName(source.name),
    mediaType,
    originUrl: source.originUrl,
    byteSize: source.bytes.length,
    status: 'queued',
    progress: 0,
    chunkTotal: 0,
    error: null,
    createdBy: ctx.actor.accountId,
    createdAt: now,
    updatedAt: now,
  };
  // The bytes first: the job may start the moment the row commits.
  await ctx.files.store.put(documentBlobKey(doc.id), source.bytes);
  try {
    await inTransaction(ctx.db, async (trx) => {
      const base = await claimedBase(ctx, trx, knowledgeId);
      await documents.insertDocument(trx, doc);
      await enqueueJobs(trx, [ingestDocumentJob(doc.id, given)], now);
      await refreshBaseStatus(trx, base);
      onCommit(trx, announceJobs);
    });
  } catch (error) {
    await ctx.files.store.remove(documentBlobKey(doc.id));
    throw error;
  }
  return { documentId: doc.id, status: doc.status };
}

/** `GET /v3/app/knowledge/{id}/documents`: the base's documents, oldest first, with their ingestion's state. */
export async function listDocuments(ctx: ServiceContext, knowledgeId: string) {
  await checkBase(ctx, knowledgeId);
  const docs = await documents.documentsOfBase(ctx.db, knowledgeId);
  return {
    documents: docs.map((doc) => ({
      id: doc.id,
      title: doc.title,
      mediaType: doc.mediaType,
      ...(doc.originUrl ? { url: doc.originUrl } : {}),
      byteSize: doc.byteSize,
      status: doc.status,
      progress: doc.progress,
      chunkTotal: doc.chunkTotal,
      ...(doc.error ? { error: doc.error } : {}),
      _createdAt: new Date(doc.createdAt).toISOString(),
    })),
  };
}

async function documentOfBase(trx: Executor, base: KnowledgeBase, documentId: string): Promise<documents.KnowledgeDocument> {
  const doc = await documents.documentById(trx, documentId);
  if (!doc || doc.knowledgeId !== base.id) throw AppError.notFound(`document "${documentId.slice(0, 80)}" does not exist in the knowledge base "${base.name}"`);
  return doc;
}

/**
 * `POST /v3/app/knowledge/{id}/documents/{document_id}/retry`: a failed document queued again, a
 * new ingestion job reading its kept bytes enqueued in the same transaction. It keeps the title it
 * has (the one given, or the one read from it when the failure came later). A document in any other
 * state: 10002 with HTTP 409.
 */
export async function retryDocument(ctx: ServiceContext, knowledgeId: string, documentId: string): Promise<{ documentId: string; status: string }> {
  const now = ctx.now();
  return inTransaction(ctx.db, async (trx) => {
    const base = await claimedBase(ctx, trx, knowledgeId);
    const doc = await documentOfBase(trx, base, documentId);
    if (doc.status !== 'failed') throw new AppError(ErrorCode.InvalidValue, 409, `document "${doc.title}" is ${doc.status}: only a failed document can be retried`);
    await documents.updateDocument(trx, doc.id, { status: 'queued', progress: 0, chunkTotal: 0, error: null, updatedAt: now });
    await enqueueJobs(trx, [ingestDocumentJob(doc.id, doc.title)], now);
    await refreshBaseStatus(trx, base);
    onCommit(trx, announceJobs);
    return { documentId: doc.id, status: 'queued' };
  });
}

/** `DELETE /v3/app/knowledge/{id}/documents/{document_id}`: the document with its passages (and its bytes, if still kept). */
export async function deleteDocument(ctx: ServiceContext, knowledgeId: string, documentId: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const base = await claimedBase(ctx, trx, knowledgeId);
    const doc = await documentOfBase(trx, base, documentId);
    await passageStore(ctx.dialect).removeAll(trx, base.id, doc.id);
    await documents.deleteDocument(trx, doc.id);
    await refreshBaseStatus(trx, base);
    onCommit(trx, () => void ctx.files.store.remove(documentBlobKey(doc.id)).catch(() => undefined));
  });
}
