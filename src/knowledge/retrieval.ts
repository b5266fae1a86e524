import type { ServiceContext } from '../shared/service-context.js';
import type { PassageSource } from './passage.js';

/**
 * Retrieval: what `POST /v3/app/knowledge/search` answers and what a chatbot grounds its answers in.
 * One function serves both, so that a chatbot can never see more than its caller could search.
 */

/** How passages are ranked: full text fused with vectors (default), vectors only, full text only. */
export type SearchMode = 'hybrid' | 'vector' | 'keyword';

export interface RetrievalRequest {
  knowledgeIds: string[];
  query: string;
  /** 1–100, default 5. */
  topK: number;
  mode: SearchMode;
  /**
   * Results scoring below it are left out. Scores: cosine similarity (vector), the engine's rank
   * scaled into [0, 1) (keyword), the fused score scaled so that 1 is first in both rankings (hybrid).
   */
  scoreThreshold?: number;
  /** Narrows record passages of one worksheet with the filter language (`query/`), under the caller's scope. */
  filter?: { worksheetId: string; tree: unknown };
}

/** One passage found: its text, its score, where it came from. */
export interface RetrievedPassage {
  content: string;
  score: number;
  source: PassageSource;
}

/**
 * Finds the best passages the caller may read: record passages only from records within the
 * caller's read scope and only when every field the passage was built from is readable to them
 * (leaving a passage out, rather than trimming it, so that its rank cannot leak a hidden field);
 * document passages when the caller may read the knowledge base. Candidates are over-fetched and
 * checked in rounds until `topK` readable ones are found or the candidates run out.
 * @example const hits = await retrieve(ctx, { knowledgeIds: [kb], query: 'refund policy', topK: 5, mode: 'hybrid' })
 */
export type Retrieve = (ctx: ServiceContext, request: RetrievalRequest) => Promise<RetrievedPassage[]>;
