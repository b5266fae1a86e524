import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/app-error.js';
import { badStringProblem } from '../shared/json-limits.js';

/**
 * Path and query parameters held to the same string rules as bodies, before authentication
 * reads them or a query binds them. A path id that no column could hold (NUL, a lone surrogate)
 * names nothing that exists: 10007, as for any other unknown id. A query parameter like that is
 * a bad value: 10002 naming it.
 */
export const requestGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(params ?? {})) {
      if (typeof value === 'string' && badStringProblem(value)) throw AppError.notFound(`${name}: no such id`);
    }
    const query = request.query as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const problem = typeof item === 'string' ? badStringProblem(item) : null;
        if (problem) throw AppError.invalidValue(`querystring.${name}: ${problem}`);
      }
      const keyProblem = badStringProblem(name);
      if (keyProblem) throw AppError.invalidValue(`querystring: a parameter name ${keyProblem}`);
    }
  });
});
