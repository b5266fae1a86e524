import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { Actor } from '../shared/actor.js';
import { parseCookieHeader, type AuthRequest, type AuthStrategy } from '../auth/auth-strategy.js';
import { requireAdministrator, requireOrganizationAdministrator, requireScope, requireWriting, type RouteAccess, type ScopeName } from '../access/index.js';
import type { Admission } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    actor: Actor | null;
  }
}

/** The caller of a route that is not public; set by the authentication hook. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(ErrorCode.TokenNotFound, 401, 'credentials are required');
  return request.actor;
}

/**
 * What the strategies see of a request. The cookies are parsed only when a strategy asks for them:
 * the API's scope has no cookie plugin (the pages keep theirs), and app-key and token calls, which
 * decide before the session strategy runs, never pay for it.
 */
function authRequestOf(request: FastifyRequest, routeScope: ScopeName | null): AuthRequest {
  let cookies = (request as FastifyRequest & { cookies?: Record<string, string | undefined> }).cookies;
  return {
    method: request.method,
    headers: request.headers,
    get cookies() {
      cookies ??= request.headers.cookie ? parseCookieHeader(request.headers.cookie) : {};
      return cookies;
    },
    ip: request.ip,
    query: (request.query ?? {}) as Record<string, unknown>,
    routeScope: routeScope ?? undefined,
  };
}

/**
 * Runs the strategies in order on every route that is not public; the first that recognises the
 * request decides. Then the route's declared need is checked: its scope against the credential's
 * (10005; 600320 through OAuth), a route that writes against a read-only credential (10005), and a
 * route that changes the application's structure against a caller that does not administer it.
 * An admin API route (`organization`) needs a person who administers the organization.
 * Rights on worksheets, records and fields are the services' to check (`access/policy.ts`).
 * `admit` (the rate limits) sees every request once its caller is known, public ones and refused
 * ones too (with a null actor), before any refusal of this hook is sent.
 */
export const authenticationPlugin = fp(async (app: FastifyInstance, options: { strategies: AuthStrategy[]; admit?: Admission }) => {
  app.decorateRequest('actor', null);
  const hints = options.strategies.map((s) => s.hint).join(', or ');
  const admit = options.admit;
  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') {
      // Awaited only when it answers with a promise (Redis): counting in memory costs no tick.
      const admitted = admit?.(request, reply, null);
      if (admitted) await admitted;
      return;
    }
    const auth = authRequestOf(request, access.scope);
    let actor: Actor | null = null;
    try {
      for (const strategy of options.strategies) {
        actor = await strategy.authenticate(auth);
        if (actor) break;
      }
    } catch (refused) {
      const admitted = admit?.(request, reply, null);
      if (admitted) await admitted;
      throw refused;
    }
    const admitted = admit?.(request, reply, actor);
    if (admitted) await admitted;
    if (!actor) throw new AppError(ErrorCode.TokenNotFound, 401, `credentials are required: send ${hints}`);
    requireScope(actor, access.scope);
    if (access.right === 'organization') requireOrganizationAdministrator(actor);
    if (access.right === 'write') requireWriting(actor);
    if (access.right === 'administer') requireAdministrator(actor, 'change its structure');
    request.actor = actor;
  });
});
