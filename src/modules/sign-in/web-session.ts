import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fastifyCookie, Signer } from '@fastify/cookie';
import { fastifySession } from '@fastify/session';
import { fastifyCsrfProtection } from '@fastify/csrf-protection';
import { fastifyFormbody } from '@fastify/formbody';
import type { Config } from '../../config/index.js';
import type { Executor } from '../../db/connection.js';
import { serverSecret } from '../../db/server-secrets.js';
import { SESSION_ABSOLUTE_MS, type SessionStore } from './session-store.js';

declare module 'fastify' {
  interface Session {
    /** The signed-in person. */
    accountId?: string;
    /** When they signed in (epoch ms): the session's absolute lifetime runs from here. */
    signedInAt?: number;
  }
}

/** The cookie that holds the signed session id. */
export const SESSION_COOKIE = 'tabularium_session';
/** The cookie that holds the CSRF secret (signed); forms carry tokens made from it. */
export const CSRF_COOKIE = 'tabularium_csrf';
/** Largest form body the pages read. */
const FORM_BODY_LIMIT = 32 * 1024;

/**
 * The key that signs the pages' cookies: SESSION_SECRET, or else a key kept in `server_secrets`
 * (the same in every process, and across restarts).
 */
export async function sessionSecretOf(config: Config, db: Executor): Promise<string> {
  return config.sessionSecret ?? (await serverSecret(db, 'sessions')).toString('hex');
}

/** What signs and checks session cookies (HMAC-SHA256), shared by the session plugin and the session strategy. */
export function sessionSigner(secret: string): Signer {
  return new Signer(secret, 'sha256');
}

/** Whether cookies may travel over HTTPS only: browsers reach the server at an https PUBLIC_URL. */
export function cookiesAreSecure(config: Config): boolean {
  return config.publicUrl.startsWith('https:');
}

/** Forms of a signed-in person carry tokens bound to their session; the sign-in form (and anyone signed out) to no one. */
function csrfOwner(request: FastifyRequest): string {
  if (request.routeOptions.url === '/sign-in' || !request.session?.accountId) return 'signed-out';
  return `session:${request.session.sessionId}`;
}

/** The token for the forms of the page being answered. */
export function csrfTokenFor(request: FastifyRequest, reply: { generateCsrf(options?: { userInfo?: string }): string }): string {
  return reply.generateCsrf({ userInfo: csrfOwner(request) });
}

/**
 * Registers, in the pages' own scope only (the API routes never see a session or a form body):
 *
 * - @fastify/cookie, signing with the session secret;
 * - @fastify/session with the database store: cookie `tabularium_session`, HttpOnly, SameSite=Lax,
 *   Path=/, Secure when PUBLIC_URL is https, Max-Age 7 days; nothing is kept or sent before a
 *   person signs in (saveUninitialized false), and the cookie is not re-sent on every page;
 * - @fastify/formbody for `application/x-www-form-urlencoded` posts (32 KB at most);
 * - @fastify/csrf-protection with its secret in a signed HttpOnly cookie (`tabularium_csrf`), so an
 *   anonymous visitor of the sign-in form leaves no row behind; a signed-in person's tokens are
 *   also bound to their session id (an HMAC with a key derived from the secret), so a token from
 *   one session is refused in another.
 *
 * Answers the secret, which also keys the session's CSRF token for the API (`api-csrf.ts`).
 */
export async function registerWebSession(app: FastifyInstance, store: SessionStore): Promise<{ secret: string }> {
  const secure = cookiesAreSecure(app.config);
  const secret = await sessionSecretOf(app.config, app.database.db);
  const signer = sessionSigner(secret);
  if (secure) {
    // The browser reaches us over https (PUBLIC_URL), often through a proxy that talks http to us:
    // the session plugin would otherwise hold back a Secure cookie on a request it sees as http.
    app.addHook('onRequest', async (request) => {
      if (request.protocol !== 'https') Object.defineProperty(request, 'protocol', { value: 'https' });
    });
  }
  await app.register(fastifyCookie, { secret: signer });
  await app.register(fastifySession, {
    secret: signer,
    cookieName: SESSION_COOKIE,
    store: store.forPlugin() as never,
    saveUninitialized: false,
    rolling: false,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_ABSOLUTE_MS },
  });
  await app.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
  await app.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: CSRF_COOKIE,
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure, signed: true },
    getUserInfo: csrfOwner,
    csrfOpts: { userInfo: true, hmacKey: createHmac('sha256', secret).update('csrf tokens').digest() },
  });
  return { secret };
}
