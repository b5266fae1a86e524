import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { failure } from '../shared/envelope.js';
import { ErrorCode } from '../shared/error-codes.js';

const METHODS: HTTPMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Unknown endpoints, in the envelope: 405 with an `Allow` header when the path exists for other
 * methods (`GET /v3/app/worksheets/list` is a POST), else 404. Fastify itself does not tell the
 * two apart, so the routes are also kept in a second router that only answers "which methods".
 */
export const notFoundPlugin = fp(async (app: FastifyInstance) => {
  const known = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: Number.MAX_SAFE_INTEGER });
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (METHODS.includes(method) && !known.hasRoute(method, route.url)) known.on(method, route.url, () => undefined);
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const shown = path.length > 200 ? `${path.slice(0, 197)}...` : path;
    const allowed = METHODS.filter((method) => known.find(method, path) !== null);
    if (allowed.length > 0 && !allowed.includes(request.method as HTTPMethod)) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(failure(ErrorCode.InvalidParameters, `${request.method} is not allowed on ${shown}; use ${allowed.join(' or ')}`));
    }
    return reply.status(404).send(failure(ErrorCode.InvalidParameters, `no such endpoint: ${request.method} ${shown}`));
  });
});
