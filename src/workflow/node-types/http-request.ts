import { Type, type Static } from '@sinclair/typebox';
import { JSON_PATH_PATTERN, valueAt } from '../json-path.js';
import { defineNodeType, RetryLater, type NodeContext, type NodeOutcome } from '../node-type.js';
import { HttpFailure, type HttpAnswer } from '../node-ports.js';
import { PLACEHOLDER, resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

/** Statuses worth trying again: the server was busy or a gateway failed. */
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);
/** The most of an answer's body the node keeps in its output. */
const KEPT_BODY = 64 * 1024;

const HttpConfig = Type.Object({
  method: Type.Union(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((m) => Type.Literal(m))),
  /** A template; each placeholder's value is URL-encoded. */
  url: Type.String({ minLength: 1, maxLength: 4000 }),
  headers: Type.Optional(Type.Array(Type.Object({ name: Type.String({ minLength: 1, maxLength: 200, pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }), value: Type.String({ maxLength: 8000 }) }), { maxItems: 50 })),
  /** A text body (a template, sent as written). */
  body: Type.Optional(Type.String({ maxLength: 1_000_000 })),
  /** Or a JSON object body, each key's value a value reference (encoded safely, whatever the values hold). */
  json: Type.Optional(Type.Record(Type.String(), ValueRef)),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 30_000 })),
  /** How many times a failure that may pass (no answer, 408, 429, 5xx) is tried again, with the job's backoff (1 s, 2 s, 4 s, 8 s). */
  retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
  /** Output keys from the JSON answer: `{key: 'id', path: 'data.items[0].id'}`. */
  responseMapping: Type.Optional(Type.Array(Type.Object({ key: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), path: Type.String({ pattern: JSON_PATH_PATTERN }) }), { maxItems: 100 })),
  /** After the last try: `fail` the run (default), or `continue` by the `error` exit. */
  onError: Type.Optional(Type.Union([Type.Literal('fail'), Type.Literal('continue')])),
});
type HttpConfig = Static<typeof HttpConfig>;

function fillTemplate(template: string, ctx: NodeContext, encode: (text: string) => string): string {
  return template.replace(PLACEHOLDER, (whole) => encode(String(resolveValue({ kind: 'template', value: whole }, ctx.values))));
}

function requestOf(config: HttpConfig, ctx: NodeContext) {
  const headers = Object.fromEntries((config.headers ?? []).map((h) => [h.name.toLowerCase(), fillTemplate(h.value, ctx, (t) => t.replace(/[\r\n]+/g, ' '))]));
  let body: string | undefined;
  if (config.json) {
    body = JSON.stringify(Object.fromEntries(Object.entries(config.json).map(([key, ref]) => [key, resolveValue(ref, ctx.values)])));
    headers['content-type'] ??= 'application/json';
  } else if (config.body !== undefined) body = fillTemplate(config.body, ctx, (t) => t);
  return { method: config.method, url: fillTemplate(config.url, ctx, encodeURIComponent), headers, body, timeoutMs: config.timeoutMs ?? 10_000 };
}

function mapped(config: HttpConfig, answer: HttpAnswer): Record<string, unknown> {
  if (!config.responseMapping?.length) return {};
  let document: unknown;
  try {
    document = JSON.parse(answer.body);
  } catch {
    document = undefined;
  }
  return Object.fromEntries(config.responseMapping.map((m) => [m.key, valueAt(document, m.path) ?? null]));
}

/** A failure after the request's tries: the error exit, or the run fails. */
function failure(config: HttpConfig, message: string, status: number | null, body: string): NodeOutcome {
  if (config.onError !== 'continue') throw new Error(message);
  return { exit: 'error', output: { ok: false, status, error: message, body: body.slice(0, KEPT_BODY) } };
}

/**
 * HTTP request (public type 8, webhook): a request built from templates (or a JSON body of value
 * references), within `timeoutMs`; 2xx and 3xx (redirects are not followed) leave by `ok` with
 * `{status, body, …mapped keys}`. Failures that may pass are tried again `retries` times with the
 * job's backoff; then the run fails, or goes on by `error` (`onError: 'continue'`). Private and
 * loopback targets are refused (HTTP_REQUEST_PRIVATE allows them). Sent before the step commits:
 * at least once.
 */
export const httpRequestNode = defineNodeType({
  type: 'http_request',
  code: 8,
  config: HttpConfig,
  exits: ['ok', 'error'],
  effects: 'external',
  check(config, at) {
    const problems = checkReferences(
      [
        { ref: { kind: 'template', value: config.url }, path: 'url' },
        ...(config.headers ?? []).map((h, i) => ({ ref: { kind: 'template' as const, value: h.value }, path: `headers[${i}].value` })),
        ...(config.body !== undefined ? [{ ref: { kind: 'template' as const, value: config.body }, path: 'body' }] : []),
        ...Object.entries(config.json ?? {}).map(([key, ref]) => ({ ref, path: `json.${key}` })),
      ],
      at,
    );
    if (config.body !== undefined && config.json) problems.push({ path: 'json', message: 'give a body or a json body, not both' });
    if (!/^(https?:\/\/|\$)/i.test(config.url)) problems.push({ path: 'url', message: 'must start with http:// or https:// (or a placeholder holding the URL)' });
    return problems;
  },
  async run(config, ctx) {
    const mayRetry = ctx.run.attempt <= (config.retries ?? 0) && ctx.run.attempt < ctx.run.maxAttempts;
    const request = requestOf(config, ctx);
    let answer: HttpAnswer;
    try {
      answer = await ctx.http.request(request);
    } catch (error) {
      if (!(error instanceof HttpFailure)) throw error;
      if (!error.refused && mayRetry) throw new RetryLater(error.message);
      return failure(config, `${config.method} ${request.url.slice(0, 300)} failed: ${error.message}`, null, '');
    }
    if (answer.status >= 400) {
      if (RETRYABLE.has(answer.status) && mayRetry) throw new RetryLater(`answered HTTP ${answer.status}`);
      return failure(config, `${config.method} ${request.url.slice(0, 300)} answered HTTP ${answer.status}`, answer.status, answer.body);
    }
    return { exit: 'ok', output: { ok: true, status: answer.status, body: answer.body.slice(0, KEPT_BODY), ...mapped(config, answer) } };
  },
});
