import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyFormbody } from '@fastify/formbody';
import { AppError } from '../../shared/app-error.js';
import { failure } from '../../shared/envelope.js';
import { ErrorCode, oauthRefusal, rfcErrorOf } from './oauth-refusal.js';
import { authenticateClient, exchangeToken, revokeGrantToken } from './token-service.js';
import { SCOPES } from '../../access/index.js';

const FORM_LIMIT = 16 * 1024;

/**
 * The endpoints' one error handler: the envelope with the 600xxx code, plus RFC 6749 §5.2's
 * `error` and `error_description` so that standard OAuth client libraries understand it, with the
 * real HTTP status (400, 401 or 403) whatever the API profile.
 */
function oauthErrorHandler(thrown: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  let error = thrown;
  if (!(error instanceof AppError)) {
    const statusCode = (error as FastifyError).statusCode;
    if (typeof statusCode !== 'number' || statusCode >= 500) {
      request.log.error({ err: error }, 'unexpected error on an OAuth endpoint');
      return reply.code(500).header('cache-control', 'no-store').send({ ...failure(ErrorCode.Failed, `internal error (request ${request.id})`), error: 'server_error' });
    }
    error = oauthRefusal(ErrorCode.OAuthInvalidRequest, error.message);
  }
  const refusal = error as AppError;
  if (refusal.code === ErrorCode.OAuthClientCredentials && request.headers.authorization) reply.header('www-authenticate', 'Basic realm="oauth"');
  return reply
    .code(refusal.httpStatus)
    .header('cache-control', 'no-store')
    .send({ ...failure(refusal.code, refusal.message), error: rfcErrorOf(refusal.code), error_description: refusal.message });
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1), or the form's. */
function clientCredentials(request: FastifyRequest, body: Record<string, unknown>): { clientId: string; clientSecret?: string } {
  const header = request.headers.authorization;
  if (header && /^basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  if (typeof body.client_id !== 'string' || body.client_id === '') throw oauthRefusal(ErrorCode.OAuthInvalidRequest, 'client_id is missing');
  return { clientId: body.client_id, ...(typeof body.client_secret === 'string' ? { clientSecret: body.client_secret } : {}) };
}

const Form = Type.Record(Type.String(), Type.Unknown());

/**
 * `POST /oauth/token`, `POST /oauth/revoke` and `GET /.well-known/oauth-authorization-server`
 * (RFC 8414). Forms are `application/x-www-form-urlencoded` (in this scope only).
 */
export const oauthRoutes: FastifyPluginAsyncTypebox<{ onRevoked(): void }> = async (app, options) => {
  await app.register(fastifyFormbody, { bodyLimit: FORM_LIMIT });
  app.setErrorHandler(oauthErrorHandler);
  const tags = ['OAuth 2.0'];
  const lifetimeMs = app.config.oauthAccessTokenSeconds * 1000;

  app.post('/oauth/token', {
    config: { access: 'public' },
    schema: { tags, summary: 'Exchange an authorization code (with PKCE) or a refresh token for tokens', body: Form },
    handler: async (request, reply) => {
      const answer = await exchangeToken({ db: app.database.db, now: app.clock(), ip: request.ip, accessTokenLifetimeMs: lifetimeMs, headers: request.headers, body: request.body });
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
    },
  });

  app.post('/oauth/revoke', {
    config: { access: 'public' },
    schema: { tags, summary: 'Revoke an access or refresh token and its whole authorization (RFC 7009)', body: Form },
    handler: async (request, reply) => {
      const body = request.body;
      const call = { db: app.database.db, now: app.clock(), ip: request.ip, headers: request.headers, body };
      const clientId = await authenticateClient(call, clientCredentials(request, body));
      if (typeof body.token !== 'string' || body.token === '') throw oauthRefusal(ErrorCode.OAuthInvalidRequest, 'token is missing');
      await revokeGrantToken(app.database.db, clientId, body.token, call.now);
      options.onRevoked();
      return reply.header('cache-control', 'no-store').send({});
    },
  });

  app.get('/.well-known/oauth-authorization-server', {
    config: { access: 'public' },
    // A standard document, not the enveloped API: left out of the OpenAPI description (and so of its fuzzing).
    schema: { hide: true, summary: 'Authorization server metadata (RFC 8414)' },
    handler: async () => {
      const issuer = app.config.publicUrl.replace(/\/$/, '');
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        scopes_supported: Object.keys(SCOPES),
      };
    },
  });
};
