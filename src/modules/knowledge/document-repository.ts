import type { Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

/** SQL of a knowledge base's documents and the state of their ingestion. */

type DocumentRow = Selectable<MetaSchema['knowledge_documents']>;

export interface KnowledgeDocument {
  id: string;
  knowledgeId: string;
  title: string;
  mediaType: string;
  originUrl: string | null;
  byteSize: number;
  /** queued, ingesting, ready or failed (`error` says why). */
  status: string;
  /** Passages embedded and stored so far, of `chunkTotal`. */
  progress: number;
  chunkTotal: number;
  error: string | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

function documentOf(row: DocumentRow): KnowledgeDocument {
  return {
    id: row.id,
    knowledgeId: row.knowledge_id,
    title: row.title,
    mediaType: row.media_type,
    originUrl: row.origin_url,
    byteSize: Number(row.byte_size),
    status: row.status,
    progress: Number(row.progress),
    chunkTotal: Number(row.chunk_total),
    error: row.error,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function insertDocument(db: Executor, doc: KnowledgeDocument): Promise<void> {
  await db
    .insertInto('knowledge_documents')
    .values({ id: doc.id, knowledge_id: doc.knowledgeId, title: doc.title, media_type: doc.mediaType, origin_url: doc.originUrl, byte_size: doc.byteSize, status: doc.status, progress: doc.progress, chunk_total: doc.chunkTotal, error: doc.error, created_by: doc.createdBy, created_at: doc.createdAt, updated_at: doc.updatedAt })
    .execute();
}

export async function documentById(db: Executor, id: string): Promise<KnowledgeDocument | undefined> {
  const row = await db.selectFrom('knowledge_documents').selectAll().where('id', '=', id).executeTakeFirst();
  return row && documentOf(row);
}

/** A base's documents, oldest first. */
export async function documentsOfBase(db: Executor, knowledgeId: string): Promise<KnowledgeDocument[]> {
  const rows = await db.selectFrom('knowledge_documents').selectAll().where('knowledge_id', '=', knowledgeId).orderBy('created_at').orderBy('id').execute();
  return rows.map(documentOf);
}

export async function updateDocument(db: Executor, id: string, changes: { title?: string; mediaType?: string; status?: string; progress?: number; chunkTotal?: number; error?: string | null; updatedAt: number }): Promise<void> {
  const { mediaType, chunkTotal, updatedAt, ...rest } = changes;
  await db
    .updateTable('knowledge_documents')
    .set({ ...rest, ...(mediaType === undefined ? {} : { media_type: mediaType }), ...(chunkTotal === undefined ? {} : { chunk_total: chunkTotal }), updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

export async function deleteDocument(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('knowledge_documents').where('id', '=', id).execute();
}

/** The ids of a base's documents (their kept bytes go with the base). */
export async function documentIdsOfBase(db: Executor, knowledgeId: string): Promise<string[]> {
  return (await db.selectFrom('knowledge_documents').select('id').where('knowledge_id', '=', knowledgeId).execute()).map((row) => row.id);
}
