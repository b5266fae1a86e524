import type { ScopeName } from '../access/scopes.js';
import type { Actor } from '../shared/actor.js';

/** The request headers a strategy reads (lower-case names, as Node gives them). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** What a strategy sees of a request: its method, headers, cookies (sessions), address and query (org-level calls take `orgId`). */
export interface AuthRequest {
  /** The HTTP method, upper-case (a session needs a CSRF token on the ones that change data). */
  method: string;
  headers: RequestHeaders;
  cookies: Readonly<Record<string, string | undefined>>;
  /** The caller's address, as the trust-proxy setting reads it. */
  ip: string;
  query: Readonly<Record<string, unknown>>;
  /** The scope the route belongs to: its level says whether the call needs an application. */
  routeScope?: ScopeName;
}

/**
 * One way of proving who calls (app key + sign, personal access token, OAuth bearer, session).
 * `authenticate` returns null when the request does not use this strategy at all, an Actor when
 * it does and succeeds, and throws an AppError (10101, 10102, 10105, …) when it does and fails.
 * `hint` says how to use it, for the 401 answered when no strategy recognises a request.
 */
export interface AuthStrategy {
  name: string;
  hint: string;
  authenticate(request: AuthRequest): Promise<Actor | null>;
}

/** The first value of a header. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The cookies of a `Cookie` header (RFC 6265 §5.4): `name=value` pairs split on `;`, values
 * percent-decoded as @fastify/cookie writes them (kept as sent when they do not decode); the first of
 * two cookies with one name wins (the browser sends the most specific path first).
 * @example parseCookieHeader('a=1; b=x%3Dy') // { a: '1', b: 'x=y' }
 */
export function parseCookieHeader(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    if (name === '' || Object.hasOwn(cookies, name)) continue;
    let value = pair.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      cookies[name] = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}
