import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../shared/app-error.js';
import { inspectJson } from '../shared/json-limits.js';

/**
 * JSON bodies, read leniently where real clients differ and strictly where data is at stake.
 * An empty body with a JSON content type (common on DELETE) is no body, not an error, and no body
 * at all reads as `{}`, so that a route whose parameters are all optional needs none, and one with
 * required parameters names them. Everything else goes to Fastify's own parser, which guards
 * against prototype poisoning; then the parsed value is held to the bounds of `json-limits`
 * (depth, NUL, lone surrogates) before any schema or service looks at it.
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, (error, parsed) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const found = inspectJson(parsed);
      if (found) done(AppError.invalidValue(`${found.path || 'body'}: ${found.problem}`), undefined);
      else done(null, parsed);
    });
  });
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') request.body = {};
  });
});
