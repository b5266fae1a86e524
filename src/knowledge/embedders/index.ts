import { AppError } from '../../shared/app-error.js';
import type { Embedder, EmbedderSpec } from '../embedder.js';
import { HASHED_NGRAMS, hashedNgramEmbedder } from './hashed-ngrams.js';

/**
 * The embedders this server can build, by kind. The built-in one is always here; others are added
 * when configured (`registerEmbedder`, at start).
 */
const makers = new Map<EmbedderSpec['kind'], (spec: EmbedderSpec) => Embedder>([['builtin', () => hashedNgramEmbedder()]]);

/** Makes embedders of `kind` available (an OpenAI-compatible endpoint, when EMBEDDINGS_URL is set). */
export function registerEmbedder(kind: EmbedderSpec['kind'], make: (spec: EmbedderSpec) => Embedder): void {
  makers.set(kind, make);
}

/** The embedder new knowledge bases get. */
export function defaultEmbedderSpec(): EmbedderSpec {
  return HASHED_NGRAMS;
}

/**
 * The embedder of a knowledge base, from its stored spec; 10002 when this server has none of its
 * kind configured any more.
 * @example const [vector] = await embedderFor(base.embedder).embed([query])
 */
export function embedderFor(spec: EmbedderSpec): Embedder {
  const make = makers.get(spec.kind);
  if (!make) throw AppError.invalidValue(`the knowledge base's embedder "${spec.kind}" (${spec.model}) is not configured on this server`);
  return make(spec);
}

/** Embeds texts in batches of the embedder's `maxBatch`. */
export async function embedAll(embedder: Embedder, texts: readonly string[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += embedder.maxBatch) vectors.push(...(await embedder.embed(texts.slice(i, i + embedder.maxBatch))));
  return vectors;
}
