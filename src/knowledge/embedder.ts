/**
 * Embedders turn text into vectors for a knowledge base's similarity search. Which one a knowledge
 * base uses is stored with it (`EmbedderSpec`), so that its passages and its queries are always
 * embedded alike; changing it re-embeds the base as a job.
 */

/** What a knowledge base records about its embedder: enough to build it again and to know its vectors' size. */
export interface EmbedderSpec {
  /** `builtin`: hashed word and character n-grams, no download; `openai`: an OpenAI-compatible `/v1/embeddings` endpoint (`EMBEDDINGS_URL`). */
  kind: 'builtin' | 'openai';
  /** The model name (`hashed-ngrams-v1` for the built-in one; `EMBEDDINGS_MODEL` for `openai`). */
  model: string;
  /** The length of every vector it returns. */
  dimensions: number;
}

/**
 * One embedder. Every vector it returns has `spec.dimensions` entries and unit length (L2), so that
 * the dot product is the cosine similarity on every engine.
 * @example const [v] = await embedder.embed(['quarterly revenue by region'])
 */
export interface Embedder {
  readonly spec: EmbedderSpec;
  /** Most texts one `embed` call takes; callers split larger batches. */
  readonly maxBatch: number;
  /** The vectors of `texts`, in order. Throws `EmbedderError` when the endpoint fails. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** An embedding endpoint's failure: `transient` when trying again later may pass (no connection, timeout, 429, 5xx). */
export class EmbedderError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    /** How long the endpoint asked to be left alone (its Retry-After), in ms, when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'EmbedderError';
  }
}
