import { requireWorksheetRight } from '../../access/index.js';
import { embedderFor } from '../../knowledge/embedders/registry.js';
import type { RetrievalRequest, Retrieve, SearchMode } from '../../knowledge/retrieval.js';
import { rankPassages } from '../../knowledge/retriever.js';
import { passageStore } from '../../knowledge/store/index.js';
import { compileFilter } from '../../query/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { callerScope } from '../records/index.js';
import { loadSchema } from '../worksheets/index.js';
import { embeddingFor } from './embedding-failure.js';
import { passageGate, type PassageFilter } from './passage-gate.js';
import * as repository from './repository.js';

/** What `POST /v3/app/knowledge/search` takes (`knowledgeId` is one base, `knowledgeIds` several). */
export interface SearchInput {
  knowledgeIds?: string[];
  knowledgeId?: string;
  query?: string;
  topK?: number;
  scoreThreshold?: number;
  mode?: string;
  filter?: { worksheetId?: string; tree?: unknown };
}

export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 100;
/** Most bases one search spans. */
export const MAX_SEARCHED_BASES = 20;
/** Longest query, in characters. */
export const MAX_QUERY_LENGTH = 2000;
const MODES: readonly SearchMode[] = ['hybrid', 'vector', 'keyword'];

/** The bases a search names (10001 when none, 10002 when too many), each once. */
function searchedIds(input: SearchInput): string[] {
  const ids = [...(input.knowledgeIds ?? []), ...(input.knowledgeId === undefined ? [] : [input.knowledgeId])].map((id) => id.trim()).filter((id) => id !== '');
  if (ids.length === 0) throw AppError.invalidParameters('knowledgeIds (or knowledgeId) is required: the knowledge bases to search');
  const distinct = [...new Set(ids)];
  if (distinct.length > MAX_SEARCHED_BASES) throw AppError.invalidValue(`knowledgeIds: at most ${MAX_SEARCHED_BASES} knowledge bases per search, got ${distinct.length}`);
  return distinct;
}

/** The request checked: 10001 for what is missing, 10002 for values out of range, each naming its parameter. */
export function retrievalRequest(input: SearchInput): RetrievalRequest {
  const knowledgeIds = searchedIds(input);
  const query = input.query?.trim() ?? '';
  if (query === '') throw AppError.invalidParameters('query is required: the text to search for');
  if (query.length > MAX_QUERY_LENGTH) throw AppError.invalidValue(`query: at most ${MAX_QUERY_LENGTH} characters, got ${query.length}`);
  const topK = input.topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) throw AppError.invalidValue(`topK: a whole number from 1 to ${MAX_TOP_K}, got ${topK}`);
  const mode = (input.mode ?? 'hybrid') as SearchMode;
  if (!MODES.includes(mode)) throw AppError.invalidValue(`mode: one of ${MODES.join(', ')}, got ${JSON.stringify(String(input.mode).slice(0, 30))}`);
  if (input.scoreThreshold !== undefined && !Number.isFinite(input.scoreThreshold)) throw AppError.invalidValue('scoreThreshold: must be a number');
  let filter: RetrievalRequest['filter'];
  if (input.filter !== undefined && input.filter !== null) {
    const worksheetId = input.filter.worksheetId?.trim() ?? '';
    if (worksheetId === '') throw AppError.invalidParameters('filter.worksheetId is required: the worksheet whose records the filter narrows');
    filter = { worksheetId, tree: input.filter.tree };
  }
  return { knowledgeIds, query, topK, mode, ...(input.scoreThreshold === undefined ? {} : { scoreThreshold: input.scoreThreshold }), ...(filter ? { filter } : {}) };
}

/** The caller's filter compiled in their scope (hidden fields refused, 430014); 10002 when no base searched indexes its worksheet. */
async function compiledFilter(ctx: ServiceContext, request: RetrievalRequest, sources: repository.KnowledgeSource[]): Promise<PassageFilter | null> {
  if (!request.filter) return null;
  const schema = await loadSchema(ctx, request.filter.worksheetId);
  if (!sources.some((source) => source.worksheetId === schema.id)) {
    throw AppError.invalidValue(`filter.worksheetId: no knowledge base searched indexes the worksheet "${schema.name}"`);
  }
  requireWorksheetRight(ctx.actor, schema, 'read');
  return { worksheetId: schema.id, predicate: compileFilter(callerScope(ctx, schema), request.filter.tree, 'filter.tree') };
}

/**
 * Retrieval (`src/knowledge/retrieval.ts`): the search endpoint's and the chatbots' one way to find
 * passages, under the caller's permissions. Unknown bases are 10007.
 */
export const retrieve: Retrieve = async (ctx, request) => {
  const bases = await repository.findBases(ctx.db, ctx.actor.appId, request.knowledgeIds);
  const missing = request.knowledgeIds.find((id) => !bases.some((base) => base.id === id));
  if (missing !== undefined) throw AppError.notFound(`knowledge base "${missing.slice(0, 80)}" does not exist in this application`);
  const filter = await compiledFilter(ctx, request, request.filter ? await repository.sourcesOfBases(ctx.db, request.knowledgeIds) : []);
  // The query is embedded once per embedder, and compared with the bases that use it.
  const groups = new Map<string, { spec: (typeof bases)[number]['embedder']; knowledgeIds: string[] }>();
  for (const base of bases) {
    const key = JSON.stringify(base.embedder);
    groups.set(key, { spec: base.embedder, knowledgeIds: [...(groups.get(key)?.knowledgeIds ?? []), base.id] });
  }
  const vectors =
    request.mode === 'keyword'
      ? []
      : await Promise.all([...groups.values()].map(async (group) => ({ knowledgeIds: group.knowledgeIds, vector: (await embeddingFor(() => embedderFor(group.spec, { embeddings: ctx.embeddings ?? null }).embed([request.query])))[0]! })));
  return rankPassages({ db: ctx.db, store: passageStore(ctx.dialect), knowledgeIds: request.knowledgeIds, vectors, readable: passageGate(ctx, filter) }, request);
};

/** `POST /v3/app/knowledge/search`: `{results:[{content, score, source}]}`. */
export async function searchKnowledge(ctx: ServiceContext, input: SearchInput) {
  const found = await retrieve(ctx, retrievalRequest(input));
  return {
    results: found.map(({ content, score, source }) => ({
      content,
      score,
      source:
        source.type === 'record'
          ? { type: source.type, knowledgeId: source.knowledgeId, worksheetId: source.worksheetId, rowId: source.rowId, fieldIds: source.fieldIds, title: source.title, chunkIndex: source.chunkIndex }
          : { type: source.type, knowledgeId: source.knowledgeId, documentId: source.documentId, title: source.title, chunkIndex: source.chunkIndex },
    })),
  };
}
