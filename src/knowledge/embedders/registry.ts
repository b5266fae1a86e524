import type { Config } from '../../config/index.js';
import type { Embedder, EmbedderSpec } from '../embedder.js';
import { serviceNotConfigured } from '../model-endpoint.js';
import { HASHED_NGRAMS, hashedNgramEmbedder } from './hashed-ngrams.js';
import { DIMENSIONS_UNKNOWN, openAiCompatibleEmbedder } from './openai-compatible.js';

/**
 * Which embedder a knowledge base uses. A new base takes the server's default (`defaultEmbedderSpec`)
 * and keeps it in its `EmbedderSpec`; from then on its passages and queries are embedded by that
 * spec (`embedderFor`), whatever the server's default becomes, until the base's embedder is changed
 * (which re-embeds it).
 */

/**
 * The embedder a new knowledge base gets: the OpenAI-compatible endpoint when EMBEDDINGS_URL is set
 * (its dimensions unknown, 0, until the first answer: see `resolveEmbedderSpec`), else the built-in one.
 * @example defaultEmbedderSpec(loadConfig({})) // { kind: 'builtin', model: 'hashed-ngrams-v1', dimensions: 256 }
 */
export function defaultEmbedderSpec(config: Pick<Config, 'embeddings'>): EmbedderSpec {
  if (!config.embeddings) return HASHED_NGRAMS;
  return { kind: 'openai', model: config.embeddings.model, dimensions: DIMENSIONS_UNKNOWN };
}

/**
 * The embedder of a stored spec. An `openai` spec is served by EMBEDDINGS_URL with the spec's own
 * model (not EMBEDDINGS_MODEL, which only names the default for new bases), so that changing the
 * setting does not mix two models' vectors in one base. Throws an AppError naming EMBEDDINGS_URL
 * (error_code 0, HTTP 503) when the spec needs the endpoint and it is not set.
 * @example const embedder = embedderFor(base.embedder, config)
 */
export function embedderFor(spec: EmbedderSpec, config: Pick<Config, 'embeddings'>): Embedder {
  if (spec.kind === 'builtin') {
    // Only one built-in model exists; another name is a base written by a later version of the program.
    if (spec.model !== HASHED_NGRAMS.model || spec.dimensions !== HASHED_NGRAMS.dimensions) {
      throw new Error(`unknown built-in embedder ${spec.model} (${spec.dimensions} dimensions); this server has ${HASHED_NGRAMS.model}`);
    }
    return hashedNgramEmbedder();
  }
  if (!config.embeddings) throw serviceNotConfigured('EMBEDDINGS_URL', `this knowledge base embeds with the model "${spec.model}" of an OpenAI-compatible service`);
  return openAiCompatibleEmbedder(config.embeddings, spec);
}

/**
 * The spec with its dimensions known: when they are not yet (a new base on an OpenAI-compatible
 * endpoint), one short text is embedded to learn them, so that the base can store its vector size
 * before its first passage. Throws `EmbedderError` when the endpoint fails.
 * @example const spec = await resolveEmbedderSpec(embedderFor(defaultEmbedderSpec(config), config))
 */
export async function resolveEmbedderSpec(embedder: Embedder): Promise<EmbedderSpec> {
  if (embedder.spec.dimensions === DIMENSIONS_UNKNOWN) await embedder.embed(['dimensions']);
  return embedder.spec;
}
