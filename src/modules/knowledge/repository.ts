import type { Expression, Selectable, SqlBool } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';
import { lockBase } from '../../knowledge/base-status.js';
import type { EmbedderSpec } from '../../knowledge/embedder.js';

/** SQL of knowledge bases and their worksheet sources (passages: `src/knowledge/store/`). */

type BaseRow = Selectable<MetaSchema['knowledge_bases']>;
type SourceRow = Selectable<MetaSchema['knowledge_sources']>;

/** A knowledge base as the program sees it. */
export interface KnowledgeBase {
  id: string;
  appId: string;
  name: string;
  description: string;
  embedder: EmbedderSpec;
  /** ready, indexing (jobs of it are queued or running), reembedding (only its re-embedding runs) or failed (`error` says why). */
  status: string;
  error: string | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  /** The embedder a re-embedding moves it to (`reembed-job.ts`), null when none runs. */
  nextEmbedder: EmbedderSpec | null;
  /** Passages with their new vector, of `reembedTotal`. */
  reembedProgress: number;
  reembedTotal: number;
  /** Why the last re-embedding failed, until the embedder is set again. */
  reembedError: string | null;
}

/** A base as it is created: no re-embedding yet. */
export type NewKnowledgeBase = Omit<KnowledgeBase, 'nextEmbedder' | 'reembedProgress' | 'reembedTotal' | 'reembedError'>;

/** What `updateBase` changes (keys left out stay). */
export interface BaseChanges {
  name?: string;
  description?: string;
  status?: string;
  error?: string | null;
  updatedAt?: number;
  embedder?: EmbedderSpec;
  nextEmbedder?: EmbedderSpec | null;
  reembedProgress?: number;
  reembedTotal?: number;
  reembedError?: string | null;
}

/** A worksheet a base indexes, and the state of its full indexing. */
export interface KnowledgeSource {
  id: string;
  knowledgeId: string;
  worksheetId: string;
  fieldIds: string[];
  status: string;
  progress: number;
  total: number;
  error: string | null;
  createdAt: number;
}

function baseOf(row: BaseRow): KnowledgeBase {
  return {
    id: row.id,
    appId: row.app_id,
    name: row.name,
    description: row.description,
    embedder: JSON.parse(row.embedder) as EmbedderSpec,
    status: row.status,
    error: row.error,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    nextEmbedder: row.next_embedder ? (JSON.parse(row.next_embedder) as EmbedderSpec) : null,
    reembedProgress: Number(row.reembed_progress),
    reembedTotal: Number(row.reembed_total),
    reembedError: row.reembed_error,
  };
}

function sourceOf(row: SourceRow): KnowledgeSource {
  return {
    id: row.id,
    knowledgeId: row.knowledge_id,
    worksheetId: row.worksheet_id,
    fieldIds: JSON.parse(row.field_ids) as string[],
    status: row.status,
    progress: Number(row.progress),
    total: Number(row.total),
    error: row.error,
    createdAt: Number(row.created_at),
  };
}

export async function insertBase(db: Executor, base: NewKnowledgeBase): Promise<void> {
  await db
    .insertInto('knowledge_bases')
    .values({
      id: base.id,
      app_id: base.appId,
      name: base.name,
      description: base.description,
      embedder: JSON.stringify(base.embedder),
      status: base.status,
      error: base.error,
      created_by: base.createdBy,
      created_at: base.createdAt,
      updated_at: base.updatedAt,
    })
    .execute();
}

/** The bases of this application with these ids (those that exist). */
export async function findBases(db: Executor, appId: string, ids: readonly string[]): Promise<KnowledgeBase[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('knowledge_bases').selectAll().where('app_id', '=', appId).where('id', 'in', ids).execute();
  return rows.map(baseOf);
}

/** A base by id, whatever its application (background jobs). */
export async function baseById(db: Executor, id: string): Promise<KnowledgeBase | undefined> {
  const row = await db.selectFrom('knowledge_bases').selectAll().where('id', '=', id).executeTakeFirst();
  return row && baseOf(row);
}

/**
 * The base, held until the caller's transaction ends: a no-op UPDATE takes its row lock first, so
 * that an edit, a deletion and an indexing job's end never interleave.
 */
export async function claimBase(db: Executor, appId: string, id: string): Promise<KnowledgeBase | undefined> {
  if (!(await lockBase(db, appId, id))) return undefined;
  return (await findBases(db, appId, [id]))[0];
}

export async function updateBase(db: Executor, id: string, changes: BaseChanges): Promise<void> {
  const columns = {
    name: changes.name,
    description: changes.description,
    status: changes.status,
    error: changes.error,
    updated_at: changes.updatedAt,
    embedder: changes.embedder && JSON.stringify(changes.embedder),
    next_embedder: changes.nextEmbedder === undefined ? undefined : changes.nextEmbedder && JSON.stringify(changes.nextEmbedder),
    reembed_progress: changes.reembedProgress,
    reembed_total: changes.reembedTotal,
    reembed_error: changes.reembedError,
  };
  // Keys left out (undefined) are not written.
  const set = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return;
  await db.updateTable('knowledge_bases').set(set).where('id', '=', id).execute();
}

export async function deleteBase(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('knowledge_sources').where('knowledge_id', '=', id).execute();
  await db.deleteFrom('knowledge_documents').where('knowledge_id', '=', id).execute();
  await db.deleteFrom('knowledge_bases').where('id', '=', id).execute();
}

/**
 * Takes a deleted base out of the knowledge bases of the application's chatbots, which would
 * otherwise fail every question (a search naming an unknown base is 10007).
 */
export async function forgetBaseInChatbots(db: Executor, appId: string, knowledgeId: string): Promise<void> {
  // The ids are ObjectId-like hex: as a JSON string they hold nothing LIKE would read as a pattern.
  const naming = await db.selectFrom('chatbots').select(['id', 'knowledge_ids']).where('app_id', '=', appId).where('knowledge_ids', 'like', `%${JSON.stringify(knowledgeId)}%`).execute();
  for (const chatbot of naming) {
    const kept = (JSON.parse(chatbot.knowledge_ids) as string[]).filter((id) => id !== knowledgeId);
    await db.updateTable('chatbots').set({ knowledge_ids: JSON.stringify(kept) }).where('id', '=', chatbot.id).execute();
  }
}

/** A page of the application's bases, newest first, those whose name matches `nameMatches` when given, and how many match. */
export async function pageOfBases(db: Executor, appId: string, nameMatches: Expression<SqlBool> | null, limit: number, offset: number): Promise<{ bases: KnowledgeBase[]; total: number }> {
  let query = db.selectFrom('knowledge_bases').where('app_id', '=', appId);
  if (nameMatches) query = query.where(nameMatches);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  return { bases: rows.map(baseOf), total: Number(count?.n ?? 0) };
}

export async function insertSources(db: Executor, sources: readonly KnowledgeSource[]): Promise<void> {
  if (sources.length === 0) return;
  await db
    .insertInto('knowledge_sources')
    .values(
      sources.map((s) => ({
        id: s.id,
        knowledge_id: s.knowledgeId,
        worksheet_id: s.worksheetId,
        field_ids: JSON.stringify(s.fieldIds),
        status: s.status,
        progress: s.progress,
        total: s.total,
        error: s.error,
        created_at: s.createdAt,
      })),
    )
    .execute();
}

export async function deleteSources(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('knowledge_sources').where('id', 'in', ids).execute();
}

/** The sources of these bases, oldest first. */
export async function sourcesOfBases(db: Executor, knowledgeIds: readonly string[]): Promise<KnowledgeSource[]> {
  if (knowledgeIds.length === 0) return [];
  const rows = await db.selectFrom('knowledge_sources').selectAll().where('knowledge_id', 'in', knowledgeIds).orderBy('created_at').orderBy('id').execute();
  return rows.map(sourceOf);
}

/** The sources that index a worksheet, with their bases' embedders (what a record write re-indexes). */
export async function sourcesOfWorksheet(db: Executor, worksheetId: string): Promise<Array<KnowledgeSource & { embedder: EmbedderSpec }>> {
  const rows = await db
    .selectFrom('knowledge_sources as s')
    .innerJoin('knowledge_bases as b', 'b.id', 's.knowledge_id')
    .selectAll('s')
    .select('b.embedder')
    .where('s.worksheet_id', '=', worksheetId)
    .execute();
  return rows.map((row) => ({ ...sourceOf(row), embedder: JSON.parse(row.embedder) as EmbedderSpec }));
}

export async function sourceById(db: Executor, id: string): Promise<KnowledgeSource | undefined> {
  const row = await db.selectFrom('knowledge_sources').selectAll().where('id', '=', id).executeTakeFirst();
  return row && sourceOf(row);
}

export async function updateSource(db: Executor, id: string, changes: { status?: string; progress?: number; total?: number; error?: string | null }): Promise<void> {
  await db.updateTable('knowledge_sources').set(changes).where('id', '=', id).execute();
}

/** How many documents each base holds. */
export async function documentCounts(db: Executor, knowledgeIds: readonly string[]): Promise<Map<string, number>> {
  if (knowledgeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('knowledge_documents')
    .select(['knowledge_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('knowledge_id', 'in', knowledgeIds)
    .groupBy('knowledge_id')
    .execute();
  return new Map(rows.map((row) => [row.knowledge_id, Number(row.n)]));
}

/** The organization an application belongs to ('' when it is gone). */
export async function organizationOfApp(db: Executor, appId: string): Promise<string> {
  const row = await db.selectFrom('apps').select('organization_id').where('id', '=', appId).executeTakeFirst();
  return row?.organization_id ?? '';
}

/** The ids of an application's bases. */
export async function baseIdsOfApp(db: Executor, appId: string): Promise<string[]> {
  return (await db.selectFrom('knowledge_bases').select('id').where('app_id', '=', appId).execute()).map((row) => row.id);
}
