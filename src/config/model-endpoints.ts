import { ConfigError, integer, text, type Env } from './env-readers.js';

/**
 * The OpenAI-compatible services the knowledge bases and chatbots may use: an embeddings endpoint
 * (EMBEDDINGS_*) and a chat model (LLM_*). Each URL is the API's base, the part before
 * `/embeddings` or `/chat/completions`, with its version: `http://127.0.0.1:11434/v1` for Ollama,
 * `http://127.0.0.1:8000/v1` for vLLM, `https://api.openai.com/v1` for OpenAI. That is the form the
 * OpenAI SDKs call the base URL, so a value copied from a provider's documentation works as given.
 */
export interface ModelEndpoint {
  /** The base URL, without a trailing slash. */
  url: string;
  /** The model asked for in every request. */
  model: string;
  /** Sent as `Authorization: Bearer …` when set (local servers usually need none). */
  apiKey: string | null;
  /** How long one request may take, in ms (for a streamed answer: until it starts, and between two of its events). */
  timeoutMs: number;
}

export interface EmbeddingsEndpoint extends ModelEndpoint {
  /** Most texts sent in one request (EMBEDDINGS_BATCH_SIZE). */
  batchSize: number;
}

/** The path each kind of endpoint serves below its base URL; a base URL that already ends with it is refused, to catch the common slip. */
const OPERATION = { EMBEDDINGS: '/embeddings', LLM: '/chat/completions' } as const;

/** The settings of one endpoint (`PREFIX_URL`, `_MODEL`, `_API_KEY`, `_TIMEOUT_MS`), or null when `PREFIX_URL` is unset. */
function endpoint(env: Env, prefix: keyof typeof OPERATION, defaultTimeoutMs: number): ModelEndpoint | null {
  const url = text(env, `${prefix}_URL`, '');
  const model = text(env, `${prefix}_MODEL`, '');
  const apiKey = text(env, `${prefix}_API_KEY`, '');
  // Read even when unused, so that a wrong value is reported now rather than when the URL is set.
  const timeoutMs = integer(env, `${prefix}_TIMEOUT_MS`, defaultTimeoutMs, 100, 3_600_000);
  if (url === '') {
    // A model or key without a URL is a half-done setup: say so rather than run without it.
    if (model !== '') throw new ConfigError(`${prefix}_MODEL`, `is set but ${prefix}_URL is not; set ${prefix}_URL to the service's base URL, such as http://127.0.0.1:11434/v1`);
    if (apiKey !== '') throw new ConfigError(`${prefix}_API_KEY`, `is set but ${prefix}_URL is not`);
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${prefix}_URL`, `must be an http(s) URL such as http://127.0.0.1:11434/v1, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${prefix}_URL`, `must be an http(s) URL, got "${url}"`);
  if (parsed.search !== '' || parsed.hash !== '') throw new ConfigError(`${prefix}_URL`, `must be a base URL without a query or fragment, got "${url}"`);
  const base = url.replace(/\/+$/, '');
  if (base.endsWith(OPERATION[prefix])) {
    throw new ConfigError(`${prefix}_URL`, `is the base URL, without ${OPERATION[prefix]} (the server adds it): use "${base.slice(0, -OPERATION[prefix].length)}"`);
  }
  if (model === '') throw new ConfigError(`${prefix}_MODEL`, `must be set when ${prefix}_URL is set (the model name the service knows, such as ${prefix === 'LLM' ? 'llama3.1' : 'nomic-embed-text'})`);
  return { url: base, model, apiKey: apiKey || null, timeoutMs };
}

/** EMBEDDINGS_URL and its companions; null: knowledge bases use the built-in embedder. */
export function embeddingsEndpoint(env: Env): EmbeddingsEndpoint | null {
  const batchSize = integer(env, 'EMBEDDINGS_BATCH_SIZE', 64, 1, 2048);
  const found = endpoint(env, 'EMBEDDINGS', 30_000);
  return found && { ...found, batchSize };
}

/** LLM_URL and its companions; null: chatbots cannot answer (their messages say LLM_URL is not set). */
export function llmEndpoint(env: Env): ModelEndpoint | null {
  return endpoint(env, 'LLM', 120_000);
}
