import type { Signer } from '@fastify/cookie';
import type { Executor } from '../db/connection.js';
import { API_CSRF_HEADER, SESSION_COOKIE, sessionIdHash, type ApiCsrf, type SessionStore } from '../modules/sign-in/index.js';
import { administersOrganization } from '../modules/people/index.js';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';
import { personActorResolver } from './person-actor.js';

export interface SessionStrategyOptions {
  db: Executor;
  sessions: SessionStore;
  /** Checks the cookie's signature (`sessionSigner` of the sign-in module, same secret as the pages). */
  signer: Pick<Signer, 'unsign'>;
  /** The session's CSRF tokens for the API (`apiCsrf` of the sign-in module). */
  csrf: ApiCsrf;
  headerPrefix: string;
  clock: () => number;
}

/** Methods that change nothing: a cookie that rode along on them cannot do harm (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How long whether a person administers their home organization is trusted (as for tokens). */
const HOME_ADMIN_CACHE_MS = 5_000;

/**
 * A signed-in browser session (the `tabularium_session` cookie of the sign-in pages) as an Actor
 * of kind `session`: the person, not narrowed by scopes, acting where `person-actor.ts` says (as a
 * personal access token of theirs would: `{prefix}-Appid` names the application, 10001 without it on
 * application calls, 10106 outside their organizations).
 *
 * - The session is read from the database on every call, so signing out, a password change or a
 *   disabled person takes effect on the next call. A bad signature, an unknown or ended session
 *   (signed out, idle 12 h, 7 days old, person disabled): 10101 (HTTP 401), as without credentials.
 * - Every call that may change data (any method but GET, HEAD, OPTIONS) must carry the session's
 *   CSRF token in `X-CSRF-Token` (the cookie rides along on requests other sites make; their pages
 *   cannot read the token): missing or wrong → 10005 (HTTP 403) naming the header.
 * - An explicit credential wins: a request with an `Authorization` header is not a session's, and
 *   the strategy runs after the app key, token and OAuth ones, so it costs their calls nothing.
 * @example const actor = await createSessionStrategy(options).authenticate({ method: 'GET', cookies, headers, ip, query })
 */
export function createSessionStrategy(options: SessionStrategyOptions): AuthStrategy {
  const csrfHeader = API_CSRF_HEADER.toLowerCase();
  const resolve = personActorResolver(options.db, options.headerPrefix);
  const homeAdmins = new Map<string, { admin: boolean; loadedAt: number }>();

  async function administersHome(accountId: string, organizationId: string, now: number): Promise<boolean> {
    const key = `${accountId}\u0000${organizationId}`;
    const hit = homeAdmins.get(key);
    if (hit && now - hit.loadedAt < HOME_ADMIN_CACHE_MS) return hit.admin;
    const admin = await administersOrganization(options.db, organizationId, accountId);
    homeAdmins.set(key, { admin, loadedAt: now });
    return admin;
  }

  function requireCsrfToken(sessionId: string, presented: string | undefined): void {
    if (presented === undefined || presented.trim() === '') {
      throw AppError.permissionDenied(`a call that changes data through a signed-in session needs the ${API_CSRF_HEADER} header: GET /sign-in/csrf (or the settings page) gives its value`);
    }
    if (!options.csrf.matches(sessionId, presented.trim())) throw AppError.permissionDenied(`the ${API_CSRF_HEADER} header is not the token of this session: GET /sign-in/csrf gives the current one`);
  }

  return {
    name: 'session',
    hint: `a signed-in session (cookie ${SESSION_COOKIE}, with ${options.headerPrefix}-Appid on application calls and ${API_CSRF_HEADER} on changes)`,
    async authenticate(request): Promise<Actor | null> {
      if (headerValue(request.headers, 'authorization') !== undefined) return null;
      const cookie = request.cookies[SESSION_COOKIE];
      if (!cookie) return null;
      const unsigned = options.signer.unsign(cookie);
      const sessionId = unsigned.valid ? unsigned.value : null;
      const person = sessionId ? await options.sessions.signedIn(sessionId) : null;
      if (!sessionId || !person) throw new AppError(ErrorCode.TokenNotFound, 401, 'this session has ended (signed out, expired or unknown): sign in again at /sign-in');
      if (!SAFE_METHODS.has(request.method)) requireCsrfToken(sessionId, headerValue(request.headers, csrfHeader));
      const now = options.clock();
      const homeAdmin = await administersHome(person.accountId, person.organizationId, now);
      const credential = { kind: 'session', noun: 'session', credentialId: sessionIdHash(sessionId).slice(0, 16), accountId: person.accountId, homeOrganizationId: person.organizationId, homeAdmin } as const;
      return resolve({ ...credential, scopes: null, appIds: null, organizationIds: null }, request, now);
    },
  };
}
