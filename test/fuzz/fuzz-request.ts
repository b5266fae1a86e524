import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { Credentials, FuzzWorld } from './fuzz-world.js';
import { describeWire, Huge, Ref, toJsonText, type WireValue } from './wire-value.js';

/**
 * One fuzzed request as data: what fast-check generates, shrinks and prints. Real ids appear as
 * `Ref`s and are looked up only when the request is sent (`toInject`), so a seed replays the same
 * logical request on a fresh database.
 */
export interface FuzzRequest {
  /** The documented operation it was made from, e.g. `PATCH /v3/app/worksheets/{worksheet_id}/rows/{row_id}`. */
  operation: string;
  /** The method sent: usually the operation's, sometimes another one. */
  method: string;
  /** The path template; `prefix` `/api` serves the same routes under `/api/v3`. */
  template: string;
  prefix: '' | '/api';
  pathIds: Array<[string, PathId]>;
  query: QueryPart[];
  credentials: Credentials | { appKey: string; sign: string };
  body: BodySpec;
}

/** A path segment: URL text taken as it is, or a value that is percent-encoded, then `suffix` (URL text) appended. */
export type PathId = { raw: string } | { value: WireValue; suffix: string };

export type QueryPart = { raw: string } | { name: string; value: WireValue };

export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: WireValue; contentType: string }
  | { kind: 'text'; text: string; contentType: string }
  /** JSON whose bytes get an invalid UTF-8 sequence (hex) after the `at`-th double quote. */
  | { kind: 'badUtf8'; value: WireValue; at: number; bytes: string; contentType: string };

/**
 * Percent-encodes a value for a path segment or query (a lone surrogate becomes U+FFFD, as a
 * client's encoder would make it). Values past 10,000 characters are cut: the router refuses a
 * path parameter long before that, and encoding megabytes would only slow the run.
 */
export function percentEncode(text: string): string {
  return encodeURIComponent(text.slice(0, 10_000).toWellFormed());
}

function plainText(value: WireValue, world: FuzzWorld): string {
  if (value instanceof Ref) return world.resolve(value);
  if (typeof value === 'string') return value;
  if (value instanceof Huge) return JSON.parse(toJsonText(value, (r) => world.resolve(r))) as string;
  return toJsonText(value, (r) => world.resolve(r));
}

/** The URL the request goes to, with its real ids. */
export function urlOf(request: FuzzRequest, world: FuzzWorld): string {
  const ids = new Map(request.pathIds);
  const path = request.template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const id = ids.get(name)!;
    return 'raw' in id ? id.raw : percentEncode(plainText(id.value, world)) + id.suffix;
  });
  const query = request.query.map((part) => ('raw' in part ? part.raw : `${percentEncode(part.name)}=${percentEncode(plainText(part.value, world))}`));
  return `${request.prefix}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function payloadOf(body: BodySpec, world: FuzzWorld): { payload?: string | Buffer; contentType?: string } {
  const resolve = (ref: Ref) => world.resolve(ref);
  switch (body.kind) {
    case 'none':
      return {};
    case 'json':
      return { payload: toJsonText(body.value, resolve), contentType: body.contentType };
    case 'text':
      return { payload: body.text, contentType: body.contentType };
    case 'badUtf8': {
      const text = Buffer.from(toJsonText(body.value, resolve), 'utf8');
      const quotes: number[] = [];
      for (let i = text.indexOf(0x22); i >= 0 && quotes.length <= body.at; i = text.indexOf(0x22, i + 1)) quotes.push(i);
      const cut = quotes.length > 0 ? quotes[body.at % quotes.length] + 1 : 0;
      return { payload: Buffer.concat([text.subarray(0, cut), Buffer.from(body.bytes, 'hex'), text.subarray(cut)]), contentType: body.contentType };
    }
  }
}

/** The request as `app.inject` takes it. */
export function toInject(request: FuzzRequest, world: FuzzWorld, headers: Record<string, string>): InjectOptions {
  const { payload, contentType } = payloadOf(request.body, world);
  return {
    method: request.method as InjectOptions['method'],
    url: urlOf(request, world),
    headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  };
}

/** How fast-check prints a request: short, with ids as pool references and big values by their size. */
export function describeRequest(request: FuzzRequest): string {
  const ids = new Map(request.pathIds);
  const path = request.template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const id = ids.get(name)!;
    return 'raw' in id ? shorten(id.raw, 80) : `⟨${describeWire(id.value, 80)}${id.suffix ? ` + ${JSON.stringify(id.suffix)}` : ''}⟩`;
  });
  const query = request.query.map((part) => ('raw' in part ? shorten(part.raw, 80) : `${part.name}=${describeWire(part.value, 80)}`)).join('&');
  const credentials = typeof request.credentials === 'string' ? request.credentials : `appKey=${shorten(JSON.stringify(request.credentials.appKey), 40)} sign=${shorten(JSON.stringify(request.credentials.sign), 40)}`;
  const body = request.body;
  const bodyText =
    body.kind === 'none'
      ? 'no body'
      : body.kind === 'text'
        ? `${body.contentType} text ${shorten(JSON.stringify(body.text), 200)}`
        : body.kind === 'json'
          ? `${body.contentType} ${describeWire(body.value)}`
          : `${body.contentType} bytes 0x${body.bytes} after quote #${body.at} in ${describeWire(body.value)}`;
  return `${request.method} ${request.prefix}${path}${query ? `?${query}` : ''} [credentials: ${credentials}] [${bodyText}] (from ${request.operation})`;
}

function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}

/** Attaches the printer fast-check uses for counterexamples. */
export function printable(request: FuzzRequest): FuzzRequest {
  return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
}

/** The request as sent, for a failure report: real URL, headers and the start of the payload. */
export function describeSent(options: InjectOptions): string {
  const payload = options.payload;
  const body =
    payload === undefined
      ? '(no body)'
      : Buffer.isBuffer(payload)
        ? `(bytes, ${payload.length}) ${shorten(payload.toString('latin1'), 600)}`
        : shorten(String(payload), 600);
  return `${options.method} ${shorten(String(options.url), 300)}\nheaders: ${shorten(JSON.stringify(options.headers), 400)}\nbody: ${body}`;
}
