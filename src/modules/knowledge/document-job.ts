import { inTransaction } from '../../db/transaction.js';
import type { JobHandler, NewJob } from '../../jobs/index.js';
import { PermanentJobFailure } from '../../jobs/index.js';
import { documentPassages } from '../../knowledge/chunking/document-passages.js';
import { parseDocument } from '../../knowledge/documents/parse-document.js';
import type { DocumentLimits } from '../../knowledge/documents/limits.js';
import { embedderFor } from '../../knowledge/embedders/registry.js';
import type { PassageInput } from '../../knowledge/passage.js';
import { refreshBaseStatus } from '../../knowledge/base-status.js';
import { passageStore } from '../../knowledge/store/index.js';
import type { FileStore } from '../../files/file-store.js';
import * as documents from './document-repository.js';
import { indexingContext, type IndexJobDeps } from './index-job.js';
import { sameEmbedder } from './embedder-choice.js';
import { embedAll } from './indexing.js';
import { cannotBeMended } from './embedding-failure.js';
import * as repository from './repository.js';

/**
 * The ingestion of one document: its kept bytes (`documentBlobKey`, in the files store) parsed,
 * chunked along its structure, embedded with the base's embedder and stored a page of passages per
 * transaction, each fenced on the job's lease and moving the row's `progress` (of `chunk_total`).
 * The first transaction removes the document's passages, so a run started again after a crash
 * starts over. A document that cannot be read (too large, not a PDF, a broken PDF) or an embedder
 * refusing for good fails at once, its row saying why; a transient embedder failure is retried
 * with the queue's backoff. Once the document is ready its bytes are removed; a failed document
 * keeps them, for `POST …/retry` (they go when it, or its base, is deleted).
 */

export const INGEST_DOCUMENT_JOB = 'knowledge.ingest-document';

/** Passages embedded and stored per transaction. */
export const INGEST_PAGE = 64;

/** Where a document's bytes wait in the files store between its request and its ingestion. */
export function documentBlobKey(documentId: string): string {
  return `knowledge-documents/${documentId}`;
}

/** `title` is the one the user gave, if any: without one, the document's own title (or its name) is taken when it is parsed. */
export function ingestDocumentJob(documentId: string, title?: string): NewJob {
  return { kind: INGEST_DOCUMENT_JOB, payload: title ? { documentId, title } : { documentId }, maxAttempts: 5 };
}

export interface DocumentJobDeps extends IndexJobDeps {
  limits: DocumentLimits;
  files: FileStore;
  clock: () => number;
}

export function ingestDocumentHandler(deps: DocumentJobDeps): JobHandler {
  const { db } = deps;
  const idOf = (payload: unknown) => String((payload as { documentId?: unknown }).documentId);
  return {
    kind: INGEST_DOCUMENT_JOB,
    async run(job, lease) {
      const documentId = idOf(job.payload);
      const doc = await documents.documentById(db, documentId);
      const base = doc && (await repository.baseById(db, doc.knowledgeId));
      if (!doc || !base) {
        // Deleted meanwhile (the document or its base): its bytes may still wait.
        await deps.files.remove(documentBlobKey(documentId));
        return;
      }
      const ctx = await indexingContext(deps, base);
      const bytes = await deps.files.get(documentBlobKey(doc.id));
      try {
        if (!bytes) throw new PermanentJobFailure(`the bytes of "${doc.title}" are gone; add the document again`);
        const given = (job.payload as { title?: unknown }).title;
        const parsed = await parseDocument({ name: doc.originUrl ?? doc.title, declaredType: doc.mediaType, bytes, ...(typeof given === 'string' ? { title: given } : {}) }, deps.limits);
        const chunks = documentPassages(parsed);
        const store = passageStore(ctx.dialect);
        // Deleting the document takes the base's row lock: taken here too before each write, so a
        // page is never added to a document deleted meanwhile (the job then just ends).
        // The base's embedder is read there too: a re-embedding switches it under the same lock (a page
        // embedded by the old one is embedded again by the new one before it is added).
        const stillThere = async (trx: typeof db) => {
          const current = await repository.claimBase(trx, base.appId, base.id);
          return current && (await documents.documentById(trx, doc.id)) !== undefined ? current : undefined;
        };
        let gone = false;
        await inTransaction(db, async (trx) => {
          await lease.fence(trx);
          await store.removeAll(trx, base.id, doc.id);
          await documents.updateDocument(trx, doc.id, { title: parsed.title, mediaType: parsed.mediaType, status: 'ingesting', progress: 0, chunkTotal: chunks.length, error: null, updatedAt: deps.clock() });
        });
        const services = { embeddings: ctx.embeddings ?? null };
        let spec = base.embedder;
        for (let start = 0; start < chunks.length && !gone; ) {
          const page = chunks.slice(start, start + INGEST_PAGE);
          const embeddedWith = spec;
          const vectors = await embedAll(embedderFor(embeddedWith, services), page.map((chunk) => chunk.content));
          const passages: PassageInput[] = page.map((chunk, i) => ({
            source: { type: 'document', knowledgeId: base.id, sourceId: doc.id, documentId: doc.id, title: chunk.title, chunkIndex: start + i },
            content: chunk.content,
            vector: vectors[i]!,
          }));
          const added = await inTransaction(db, async (trx) => {
            await lease.fence(trx);
            const current = await stillThere(trx);
            gone = !current;
            if (!current) return false;
            spec = current.embedder;
            if (!sameEmbedder(spec, embeddedWith)) return false;
            await store.add(trx, passages);
            await documents.updateDocument(trx, doc.id, { progress: start + page.length, updatedAt: deps.clock() });
            return true;
          });
          if (added) start += INGEST_PAGE;
        }
        await inTransaction(db, async (trx) => {
          await lease.finish(trx);
          if (gone || !(await stillThere(trx))) return;
          await documents.updateDocument(trx, doc.id, { status: 'ready', progress: chunks.length, updatedAt: deps.clock() });
          await refreshBaseStatus(trx, base);
        });
      } catch (error) {
        if (cannotBeMended(error) && !(error instanceof PermanentJobFailure)) throw new PermanentJobFailure((error as Error).message);
        throw error;
      }
      await deps.files.remove(documentBlobKey(doc.id));
    },
    async giveUp(job, error) {
      const doc = await documents.documentById(db, idOf(job.payload));
      const base = doc && (await repository.baseById(db, doc.knowledgeId));
      if (!doc || !base) return;
      await inTransaction(db, async (trx) => {
        await documents.updateDocument(trx, doc.id, { status: 'failed', error: error instanceof Error ? error.message : String(error), updatedAt: deps.clock() });
        await refreshBaseStatus(trx, base);
      });
    },
  };
}
