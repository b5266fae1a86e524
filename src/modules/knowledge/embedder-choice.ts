import type { EmbedderSpec } from '../../knowledge/embedder.js';
import { defaultEmbedderSpec, embedderFor, resolveEmbedderSpec } from '../../knowledge/embedders/registry.js';
import { HASHED_NGRAMS } from '../../knowledge/embedders/hashed-ngrams.js';
import { DIMENSIONS_UNKNOWN } from '../../knowledge/embedders/openai-compatible.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { embeddingFor } from './embedding-failure.js';

/**
 * The `embedder` key of `POST /v3/app/knowledge` and `PATCH …/{knowledge_id}`: which embedder a
 * base uses. A name, or an object as `GET` shows the base's embedder:
 * - `"builtin"` or `{kind: "builtin"}`: the built-in hashed n-grams (`hashed-ngrams-v1`);
 * - `"openai-compatible"` (or `"openai"`) or `{kind: "openai-compatible", model?}`: the service at
 *   EMBEDDINGS_URL with `model` (default EMBEDDINGS_MODEL).
 * `dimensions`, when sent, must be what the model answers (so that the object `GET` shows can be
 * sent back as it is). The choice is checked by embedding one short text, as a new base's is, so
 * that a model the service does not have is refused now rather than by the job.
 */

const KINDS = ['builtin', 'openai-compatible'];
const MAX_MODEL = 200;

type Choice = { kind: 'builtin' | 'openai'; model?: string; dimensions?: number };

function describe(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 60) ?? String(value);
}

function kindOf(value: unknown, where: string): Choice['kind'] {
  if (value === 'builtin') return 'builtin';
  if (value === 'openai' || value === 'openai-compatible') return 'openai';
  throw AppError.invalidValue(`${where}: one of ${KINDS.join(', ')}, got ${describe(value)}`);
}

/** The choice as sent, checked for shape: 10001 when the object has no kind, 10002 for values that are not allowed. */
function choiceOf(value: unknown): Choice {
  if (typeof value === 'string') return { kind: kindOf(value.trim(), 'embedder') };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw AppError.invalidValue(`embedder: "builtin", "openai-compatible" or an object {kind, model?, dimensions?}, got ${describe(value)}`);
  }
  const object = value as Record<string, unknown>;
  const unknown = Object.keys(object).find((key) => !['kind', 'model', 'dimensions'].includes(key));
  if (unknown !== undefined) throw AppError.invalidValue(`embedder.${unknown.slice(0, 40)}: not a key of embedder (kind, model, dimensions)`);
  if (object.kind === undefined) throw AppError.invalidParameters(`embedder.kind is required: one of ${KINDS.join(', ')}`);
  const choice: Choice = { kind: kindOf(object.kind, 'embedder.kind') };
  if (object.model !== undefined) {
    if (typeof object.model !== 'string' || object.model.trim() === '' || object.model.length > MAX_MODEL) throw AppError.invalidValue(`embedder.model: a model name of 1 to ${MAX_MODEL} characters, got ${describe(object.model)}`);
    choice.model = object.model.trim();
  }
  if (object.dimensions !== undefined) {
    if (!Number.isInteger(object.dimensions) || (object.dimensions as number) < 1) throw AppError.invalidValue(`embedder.dimensions: a whole number from 1, got ${describe(object.dimensions)}`);
    choice.dimensions = object.dimensions as number;
  }
  return choice;
}

/**
 * The spec a base's `embedder` key chooses, its vector size known; the server's default when the key
 * is left out. 10002 naming `embedder` for a choice this server cannot serve (an endpoint without
 * EMBEDDINGS_URL, another built-in model, a size the model does not answer); error_code 0 with HTTP
 * 503 or 502 when the embeddings service fails the probe.
 * @example await chosenEmbedder(ctx, { kind: 'openai-compatible', model: 'nomic-embed-text' })
 */
export async function chosenEmbedder(ctx: ServiceContext, value: unknown): Promise<EmbedderSpec> {
  const services = { embeddings: ctx.embeddings ?? null };
  if (value === undefined) return embeddingFor(() => resolveEmbedderSpec(embedderFor(defaultEmbedderSpec(services), services)));
  const choice = choiceOf(value);
  let spec: EmbedderSpec;
  if (choice.kind === 'builtin') {
    if (choice.model !== undefined && choice.model !== HASHED_NGRAMS.model) throw AppError.invalidValue(`embedder.model: the built-in embedder is "${HASHED_NGRAMS.model}", got ${describe(choice.model)}`);
    spec = HASHED_NGRAMS;
  } else {
    if (!services.embeddings) throw AppError.invalidValue('embedder: "openai-compatible" embeds with an OpenAI-compatible service, but EMBEDDINGS_URL is not set on this server (docs/operations.md, "Knowledge bases and chatbots"); "builtin" is available');
    spec = await embeddingFor(() => resolveEmbedderSpec(embedderFor({ kind: 'openai', model: choice.model ?? services.embeddings!.model, dimensions: DIMENSIONS_UNKNOWN }, services)));
  }
  if (choice.dimensions !== undefined && choice.dimensions !== spec.dimensions) {
    throw AppError.invalidValue(`embedder.dimensions: "${spec.model}" gives ${spec.dimensions}-dimensional vectors, not ${choice.dimensions}`);
  }
  return spec;
}

/** Whether two specs embed alike (same kind, model and size). */
export function sameEmbedder(a: EmbedderSpec | null, b: EmbedderSpec | null): boolean {
  return a !== null && b !== null && a.kind === b.kind && a.model === b.model && a.dimensions === b.dimensions;
}
