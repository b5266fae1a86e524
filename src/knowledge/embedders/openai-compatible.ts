import type { EmbeddingsEndpoint } from '../../config/model-endpoints.js';
import { EmbedderError, type Embedder, type EmbedderSpec } from '../embedder.js';
import { ModelCallFailure, operationUrl, postForJson } from '../model-endpoint.js';
import { scaleToUnitLength } from '../unit-length.js';

/**
 * An embedder on an OpenAI-compatible `POST {EMBEDDINGS_URL}/embeddings` (OpenAI, Ollama, vLLM,
 * LM Studio, LiteLLM, …): `{model, input: [texts]}` → `{data: [{index, embedding}]}`.
 * - Batches of at most `EMBEDDINGS_BATCH_SIZE` texts, one request at a time, each within
 *   `EMBEDDINGS_TIMEOUT_MS`. It does not retry by itself: an `EmbedderError` says whether trying
 *   again may pass (`transient`: no connection, timeout, 408, 425, 429, 5xx), and the job that
 *   called it retries with the queue's backoff.
 * - Blank texts are not sent (OpenAI refuses empty inputs); their vectors are all zeros, as the
 *   built-in embedder gives a text without words, so they match nothing.
 * - Every vector is scaled to unit length: some models return unnormalised vectors, and the stores
 *   take the dot product as the cosine similarity.
 * - Dimensions: a spec with `dimensions: 0` (a new knowledge base, `defaultEmbedderSpec`) learns
 *   them from the first answer, and `spec` says them from then on; a spec with dimensions checks
 *   every answer against them, so that a model swapped behind the same name is an error rather
 *   than vectors of another size in the same base.
 */

/** What a spec says before its first answer: the size is learnt from it. */
export const DIMENSIONS_UNKNOWN = 0;

interface EmbeddingsAnswer {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

/**
 * @example const embedder = openAiCompatibleEmbedder(config.embeddings!, { kind: 'openai', model: 'nomic-embed-text', dimensions: 0 })
 */
export function openAiCompatibleEmbedder(endpoint: EmbeddingsEndpoint, stored: EmbedderSpec): Embedder {
  let dimensions = stored.dimensions;
  const url = operationUrl(endpoint, '/embeddings');

  async function request(texts: string[]): Promise<Float32Array[]> {
    let answer: EmbeddingsAnswer;
    try {
      answer = (await postForJson(endpoint, '/embeddings', { model: stored.model, input: texts }, AbortSignal.timeout(endpoint.timeoutMs))) as EmbeddingsAnswer;
    } catch (error) {
      if (error instanceof ModelCallFailure) throw new EmbedderError(`embeddings: ${error.message}`, error.transient, error.retryAfterMs);
      throw error;
    }
    return vectorsOf(answer, texts.length);
  }

  /** The answer's vectors in input order, checked and normalised. */
  function vectorsOf(answer: EmbeddingsAnswer, count: number): Float32Array[] {
    const data = Array.isArray(answer?.data) ? answer.data : null;
    if (!data || data.length !== count) {
      throw new EmbedderError(`embeddings: ${url} answered ${data ? `${data.length} vectors for ${count} texts` : 'without a data list'}`, false);
    }
    const vectors: Float32Array[] = new Array(count);
    data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      const embedding = item.embedding;
      if (index < 0 || index >= count || vectors[index] || !Array.isArray(embedding) || embedding.length === 0 || !embedding.every(Number.isFinite)) {
        throw new EmbedderError(`embeddings: ${url} answered an unreadable vector at index ${index} (expected a list of numbers for each text)`, false);
      }
      if (dimensions === DIMENSIONS_UNKNOWN) dimensions = embedding.length;
      if (embedding.length !== dimensions) {
        throw new EmbedderError(`embeddings: model "${stored.model}" answered ${embedding.length}-dimensional vectors, but this knowledge base's are ${dimensions}-dimensional; change its embedder to re-embed it`, false);
      }
      vectors[index] = scaleToUnitLength(Float32Array.from(embedding as number[]));
    });
    return vectors;
  }

  return {
    get spec(): EmbedderSpec {
      return { kind: stored.kind, model: stored.model, dimensions };
    },
    maxBatch: endpoint.batchSize,
    async embed(texts) {
      const vectors: Float32Array[] = new Array(texts.length);
      const sent = texts.flatMap((text, index) => (text.trim() === '' ? [] : [index]));
      for (let from = 0; from < sent.length; from += endpoint.batchSize) {
        const batch = sent.slice(from, from + endpoint.batchSize);
        const answered = await request(batch.map((index) => texts[index]!));
        batch.forEach((index, position) => (vectors[index] = answered[position]!));
      }
      // Only blank texts and no size known yet: one probe, so that their zero vectors have the model's size.
      if (dimensions === DIMENSIONS_UNKNOWN && texts.length > 0) await request(['dimensions']);
      for (let i = 0; i < texts.length; i++) vectors[i] ??= new Float32Array(dimensions);
      return vectors;
    },
  };
}
