import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messagePage, PAGE_CONTENT_SECURITY_POLICY, replyPage, type PageKit } from '../sign-in/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { checkAuthorizeRequest, checkPersonMayAuthorize, declined, issueCode, RedirectedRefusal, type AuthorizeQuery } from './authorize.js';
import { consentPage } from './consent-page.js';

const FIELDS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/** The authorization request's fields from a query or form (only strings; repeated fields refused). */
function authorizeQueryOf(source: unknown): AuthorizeQuery {
  const values = (source ?? {}) as Record<string, unknown>;
  const query: AuthorizeQuery = {};
  for (const name of FIELDS) {
    const value = values[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new AppError(ErrorCode.OAuthInvalidRequest, 400, `${name} must be given once`);
    query[name] = value;
  }
  return query;
}

/** The refusal page of the flow, with the 600xxx code shown (never a redirect to an unchecked URI). */
function refusalPage(reply: FastifyReply, error: AppError): FastifyReply {
  return replyPage(reply, error.httpStatus, messagePage('Authorization refused', `${error.message} (error ${error.code})`, { href: '/settings', label: 'Back to settings' }));
}

/**
 * `GET /oauth/authorize` (the consent page) and `POST /oauth/authorize` (Allow or Deny, CSRF
 * checked), in the pages' scope: the person signs in first (the sign-in form returns here).
 */
export async function consentRoutes(app: FastifyInstance, kit: PageKit): Promise<void> {
  const db = app.database.db;
  const handle = async (request: FastifyRequest, reply: FastifyReply, source: unknown, mode: 'show' | 'decide', decision?: unknown) => {
    try {
      const authorize = await checkAuthorizeRequest(db, authorizeQueryOf(source));
      const person = await kit.personOf(request, reply);
      if (!person) return reply;
      await checkPersonMayAuthorize(db, authorize, person.id);
      if (mode === 'show') {
        // The form leads to the client's redirect URI: the policy lets it (and only it) be reached.
        const origin = new URL(authorize.redirectUri).origin;
        reply.header('content-security-policy', PAGE_CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${origin}`));
        return replyPage(reply, 200, consentPage(authorize, person, kit.csrfTokenFor(request, reply)));
      }
      const location = decision === 'allow' ? await issueCode(db, authorize, person.id, app.clock()) : declined(authorize);
      return reply.redirect(location, 303);
    } catch (error) {
      if (error instanceof RedirectedRefusal) return reply.redirect(error.location, 303);
      if (error instanceof AppError && error.code >= 600000) return refusalPage(reply, error);
      throw error;
    }
  };

  app.get('/oauth/authorize', {
    config: { access: 'public' },
    schema: { hide: true, summary: 'The OAuth consent page' },
    handler: async (request, reply) => handle(request, reply, request.query, 'show'),
  });
  app.post('/oauth/authorize', {
    config: { access: 'public' },
    preHandler: app.csrfProtection,
    schema: { hide: true, summary: 'Allow or deny an OAuth client (form: the authorization request, decision, _csrf)' },
    handler: async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      return handle(request, reply, body, 'decide', body.decision);
    },
  });
}
