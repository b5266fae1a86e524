import type { ModelEndpoint } from '../config/model-endpoints.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';

/**
 * One request to an OpenAI-compatible service (embeddings, chat): the JSON POST, the key, and what
 * a failure means. Shared by the embedder and the chat client so that both judge failures alike:
 * no connection, a timeout, 408, 425, 429 and 5xx may pass if tried later (`transient`); any other
 * answer (a wrong key, an unknown model, a refused input) will not.
 */

/** Statuses after which the same request may pass later: the service was busy, overloaded or restarting. */
const TRANSIENT_STATUSES = new Set([408, 425, 429]);
/** The most of an error answer's body read to find its message. */
const ERROR_BODY_CHARS = 4000;

/** A failed call: what happened, in words safe to log, and whether trying again later may pass. */
export class ModelCallFailure extends Error {
  readonly transient: boolean;
  /** The service's HTTP status; null when no answer came (no connection, timeout). */
  readonly status: number | null;
  /** How long the service asked us to wait (Retry-After), in ms. */
  readonly retryAfterMs: number | undefined;
  /** No answer came in time. */
  readonly timedOut: boolean;

  constructor(message: string, how: { transient: boolean; status?: number | null; retryAfterMs?: number; timedOut?: boolean }) {
    super(message);
    this.name = 'ModelCallFailure';
    this.transient = how.transient;
    this.status = how.status ?? null;
    this.retryAfterMs = how.retryAfterMs;
    this.timedOut = how.timedOut ?? false;
  }
}

/**
 * The error for a feature whose service this server has not been given: error_code 0 ("request
 * failed") with HTTP 503. None of the spec's specific codes fits: 10001/10002 would blame the
 * caller's input and 10005 their rights, 99999 is a data operation that failed; the request is
 * sound and would pass on a server that sets `setting`, which is what 503 (unavailable) says.
 * @example throw serviceNotConfigured('LLM_URL', 'chatbots answer with a language model')
 */
export function serviceNotConfigured(setting: string, why: string): AppError {
  return new AppError(ErrorCode.Failed, 503, `${why}, but ${setting} is not set on this server (docs/operations.md, "Knowledge bases and chatbots")`);
}

/** `{url}{path}`, as the failures name it (never with the key). */
export function operationUrl(endpoint: ModelEndpoint, path: string): string {
  return `${endpoint.url}${path}`;
}

/**
 * POSTs `body` as JSON to `{endpoint.url}{path}` and returns the answer when it is a 2xx; throws a
 * `ModelCallFailure` otherwise. An abort by `signal` is thrown as it came (the caller ended the call,
 * so there is nothing to judge), except a timeout, which is a transient failure.
 * @example const answer = await postJson(config.embeddings, '/embeddings', { model, input }, AbortSignal.timeout(30_000))
 */
export async function postJson(endpoint: ModelEndpoint, path: string, body: unknown, signal: AbortSignal): Promise<Response> {
  const url = operationUrl(endpoint, path);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let answer: Response;
  try {
    // Redirects are not followed: a POST that is redirected is a wrong URL to fix, and following it could carry the key elsewhere.
    answer = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'manual' });
  } catch (error) {
    throw failureOfThrown(error, url, signal);
  }
  if (answer.ok) return answer;
  throw await failureOfAnswer(answer, url);
}

/**
 * `postJson` and the answer's JSON. Throws a `ModelCallFailure` for every failure of the service,
 * including an answer that is not JSON or a body cut off by a timeout; the caller's abort as it came.
 * @example const answer = await postForJson(endpoint, '/embeddings', { model, input }, AbortSignal.timeout(endpoint.timeoutMs))
 */
export async function postForJson(endpoint: ModelEndpoint, path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
  const url = operationUrl(endpoint, path);
  try {
    const response = await postJson(endpoint, path, body, signal);
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new ModelCallFailure(`${url} answered something that is not JSON (${serviceMessage(text) || 'an empty body'})`, { transient: false, status: response.status });
    }
  } catch (error) {
    throw failureOfThrown(error, url, signal);
  }
}

/** A thrown fetch or read error as a failure: a timeout or lost connection is transient; the caller's own abort is passed on. */
export function failureOfThrown(error: unknown, url: string, signal: AbortSignal): unknown {
  if (error instanceof ModelCallFailure) return error;
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof ModelCallFailure) return reason;
  if (isTimeout(reason) || isTimeout(error)) return new ModelCallFailure(`${url} did not answer in time`, { transient: true, timedOut: true });
  if (signal.aborted) return reason ?? error;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  // fetch refuses a list of ports (the Fetch standard's "bad ports", such as 6000 or 6667) before connecting: a setting to change, not a service to wait for.
  if (cause?.message === 'bad port') return new ModelCallFailure(`${url} uses a port that fetch refuses to connect to; serve the service on another port`, { transient: false });
  const detail = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ModelCallFailure(`${url} could not be reached (${detail})`, { transient: true });
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

async function failureOfAnswer(answer: Response, url: string): Promise<ModelCallFailure> {
  if (answer.status >= 300 && answer.status < 400) {
    void answer.body?.cancel();
    const to = answer.headers.get('location');
    return new ModelCallFailure(`${url} answered ${answer.status}, a redirect${to ? ` to ${to}` : ''}; configure the address it redirects to`, { transient: false, status: answer.status });
  }
  const message = serviceMessage(await answer.text().catch(() => ''));
  const transient = TRANSIENT_STATUSES.has(answer.status) || answer.status >= 500;
  return new ModelCallFailure(`${url} answered ${answer.status}${message ? `: ${message}` : ''}`, { transient, status: answer.status, retryAfterMs: retryAfterMs(answer.headers.get('retry-after')) });
}

/**
 * The message in an error answer: OpenAI and vLLM send `{error: {message}}`, Ollama `{error: "…"}`,
 * some proxies `{message}` or plain text. Cut short: it is logged and may be shown.
 */
export function serviceMessage(body: string): string {
  const head = body.slice(0, ERROR_BODY_CHARS);
  let message = head;
  try {
    const parsed = JSON.parse(head) as { error?: unknown; message?: unknown };
    const error = parsed.error as { message?: unknown } | string | undefined;
    const found = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : typeof parsed.message === 'string' ? parsed.message : undefined;
    if (found !== undefined) message = found;
  } catch {
    // Not JSON: the text itself (an HTML error page of a proxy, say) is the best we have.
  }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

/** Retry-After as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
