import type { Signer } from '@fastify/cookie';
import { NO_GRANTS, SCOPES } from '../access/index.js';
import type { Executor } from '../db/connection.js';
import { SESSION_COOKIE, sessionIdHash, type SessionStore } from '../modules/sign-in/index.js';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { headerValue, type AuthStrategy } from './auth-strategy.js';
import { standingInApp } from '../modules/roles/index.js';

export interface SessionStrategyOptions {
  db: Executor;
  sessions: SessionStore;
  /** Checks the cookie's signature (`sessionSigner` of the sign-in module, same secret as the pages). */
  signer: Pick<Signer, 'unsign'>;
  headerPrefix: string;
}

/**
 * A signed-in browser session (the `tabularium_session` cookie of the sign-in pages) as an Actor
 * of kind `session`: the person, not narrowed by scopes; `{prefix}-Appid` names the application,
 * where the owner administers it and anyone else has what their roles grant. A bad signature, an
 * unknown or ended session (signed out, idle 12 h, 7 days old, person disabled): 10105.
 *
 * Not registered for the API routes: a cookie travels with requests other sites make, so the API
 * would need CSRF checks on every cookie-carrying write first (docs/api.md, "Sign-in pages"). The
 * pages read their session through @fastify/session; this is for routes that come to accept it.
 * @example const actor = await createSessionStrategy(options).authenticate({ cookies, headers, ip, query })
 */
export function createSessionStrategy(options: SessionStrategyOptions): AuthStrategy {
  const appHeader = `${options.headerPrefix.toLowerCase()}-appid`;
  return {
    name: 'session',
    hint: `a signed-in session (cookie ${SESSION_COOKIE}, with ${options.headerPrefix}-Appid on application calls)`,
    async authenticate({ cookies, headers, routeScope }): Promise<Actor | null> {
      const cookie = cookies[SESSION_COOKIE];
      if (!cookie) return null;
      const unsigned = options.signer.unsign(cookie);
      const session = unsigned.valid && unsigned.value ? await options.sessions.find(unsigned.value) : null;
      if (!session?.accountId) throw new AppError(ErrorCode.UserTokenInvalid, 401, 'this session has ended: sign in again');
      const base = { kind: 'session' as const, userId: session.accountId, accountId: session.accountId, credentialId: `session:${sessionIdHash(unsigned.value!).slice(0, 16)}`, scopes: null };
      const appId = headerValue(headers, appHeader)?.trim() ?? '';
      if (appId === '') {
        if (routeScope && SCOPES[routeScope].level === 'app') throw AppError.invalidParameters(`the ${options.headerPrefix}-Appid header is required with a session: it names the application`);
        return { ...base, appId: '', organizationId: '', grants: NO_GRANTS, organizationAdmin: false };
      }
      const standing = await standingInApp(options.db, session.accountId, appId);
      if (!standing) throw AppError.notFound(`application "${appId.slice(0, 80)}" (${options.headerPrefix}-Appid) does not exist`);
      if (!standing.member) throw new AppError(ErrorCode.UserTokenRestricted, 403, 'you are not a member of the organization of this application');
      return { ...base, appId, organizationId: standing.organizationId, grants: standing.grants, organizationAdmin: standing.organizationAdmin };
    },
  };
}
