import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { Actor } from '../shared/actor.js';
import type { AuthStrategy } from '../auth/auth-strategy.js';

/** What a route declares it needs: `public` (no credentials), `read`, or `write`. */
export type RouteAccess = 'public' | 'read' | 'write';

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
 * Runs the strategies in order on every non-public route; the first that recognises the
 * request decides. A read-only key is refused on `write` routes (10005).
 */
export const authenticationPlugin = fp(async (app: FastifyInstance, options: { strategies: AuthStrategy[]; headerPrefix: string }) => {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    let actor: Actor | null = null;
    for (const strategy of options.strategies) {
      actor = await strategy.authenticate(request.headers);
      if (actor) break;
    }
    if (!actor) {
      throw new AppError(
        ErrorCode.TokenNotFound,
        401,
        `credentials are required: send the ${options.headerPrefix}-Appkey and ${options.headerPrefix}-Sign headers`,
      );
    }
    if (access === 'write' && actor.readOnly) {
      throw AppError.permissionDenied('this key is read-only and cannot change data');
    }
    request.actor = actor;
  });
});
