import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeNextPath } from './next-path.js';
import { replyPage, pageErrorHandler, securePage } from './page-replies.js';
import { changePassword, createPersonalToken, MAX_PASSWORD_LENGTH, revokePersonalToken, settingsOf, signedInPerson, signIn } from './service.js';
import { SessionStore } from './session-store.js';
import { settingsPage, tokenCreatedPage } from './settings-page.js';
import { SignInAttempts } from './sign-in-attempts.js';
import { signInPage, tooManyAttemptsMessage, WRONG_SIGN_IN } from './sign-in-page.js';
import { csrfTokenFor, registerWebSession, SESSION_COOKIE } from './web-session.js';
import { apiCsrf, API_CSRF_HEADER } from './api-csrf.js';
import { SETTINGS_CONTENT_SECURITY_POLICY } from './layout.js';
import { failure, ok } from '../../shared/envelope.js';
import { ErrorCode } from '../../shared/error-codes.js';

const Password = Type.String({ maxLength: MAX_PASSWORD_LENGTH });
const SignInQuery = Type.Object({ next: Type.Optional(Type.String()), out: Type.Optional(Type.String()) });
const SignInForm = Type.Object({ email: Type.String({ maxLength: 320 }), password: Password, next: Type.Optional(Type.String()) });
const SettingsQuery = Type.Object({ done: Type.Optional(Type.String()) });
const PasswordForm = Type.Object({ current: Password, password: Password, confirm: Password });
const TokenForm = Type.Object({
  name: Type.String({ maxLength: 200 }),
  scopes: Type.Array(Type.String({ maxLength: 100 }), { default: [], maxItems: 200 }),
  allScopes: Type.Optional(Type.String()),
  expires: Type.String({ default: 'never', maxLength: 40 }),
  expiresOn: Type.Optional(Type.String({ maxLength: 40 })),
  apps: Type.String({ default: 'all', maxLength: 10 }),
  appIds: Type.Array(Type.String({ maxLength: 100 }), { default: [], maxItems: 200 }),
});
const TokenParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

/** What a finished action says on the settings page it leads back to (`?done=`). */
const DONE: Record<string, string> = {
  password: 'Your password was changed. Your other sessions were signed out.',
  revoked: 'The token was revoked: it no longer works.',
};

/** What other modules' pages get from this scope: the signed-in person and CSRF tokens for their forms. */
export interface PageKit {
  /** The signed-in person, or null after answering with a redirect to the sign-in form (which returns here on GET). */
  personOf(request: FastifyRequest, reply: FastifyReply): Promise<{ id: string; email: string; fullname: string; organizationId: string } | null>;
  csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string;
}

export interface SignInPageOptions {
  /** More pages that live in this scope (sessions, CSRF, the pages' error handler), such as the OAuth consent page. */
  morePages?: ((app: FastifyInstance, kit: PageKit) => Promise<void>)[];
  /** Called with the id of a token revoked on the settings page, so that it stops working at once in this process. */
  onTokenRevoked(tokenId: string): void;
}

/**
 * The pages a person uses in a browser, outside the API prefixes: `GET|POST /sign-in`,
 * `POST /sign-out`, `GET /sign-in/csrf` (JSON: the session's CSRF token for the API), `GET /settings`, `POST /settings/password`, `POST /settings/tokens` and
 * `POST /settings/tokens/{id}/revoke`. Every form is checked against CSRF; sessions live in the
 * database. Left out of the OpenAPI document (they answer HTML, docs/api.md "Sign-in pages").
 */
export const signInPageRoutes: FastifyPluginAsyncTypebox<SignInPageOptions> = async (app, options) => {
  const db = app.database.db;
  const store = new SessionStore(db, app.clock);
  const attempts = new SignInAttempts(db, { perAccount: app.config.signInAttemptsPerAccount, perIp: app.config.signInAttemptsPerIp });
  const { secret } = await registerWebSession(app, store);
  const apiTokens = apiCsrf(secret);
  app.setErrorHandler(pageErrorHandler);
  app.addHook('onSend', async (_request, reply) => {
    securePage(reply);
  });

  /** The signed-in person of the request, or a redirect to the sign-in form (which returns here). */
  const personOf = async (request: FastifyRequest, reply: FastifyReply) => {
    const accountId = request.session.accountId;
    const person = accountId ? await signedInPerson(db, accountId) : null;
    if (person) return person;
    const back = request.method === 'GET' ? request.url : '/settings';
    await reply.redirect(`/sign-in?next=${encodeURIComponent(back)}`, 303);
    return null;
  };
  const settingsReply = async (request: FastifyRequest, reply: FastifyReply, person: { id: string; email: string; fullname: string; organizationId: string }, extra: { notice?: string; passwordError?: string; tokenError?: string }, status = 200) => {
    const { tokens, apps } = await settingsOf(db, person, app.clock());
    const api = { csrfToken: apiTokens.tokenFor(request.session.sessionId), csrfHeader: API_CSRF_HEADER, appIdHeader: `${app.config.headerPrefix}-Appid` };
    // This page may call the API of this server (from the browser's console): the token it shows is for that.
    reply.header('content-security-policy', SETTINGS_CONTENT_SECURITY_POLICY);
    return replyPage(reply, status, settingsPage({ csrfToken: csrfTokenFor(request, reply), person, tokens, apps, api, ...extra }));
  };
  const csrf = app.csrfProtection;
  for (const pages of options.morePages ?? []) await pages(app, { personOf, csrfTokenFor });

  app.get('/sign-in', {
    config: { access: 'public' },
    schema: { hide: true, summary: 'The sign-in form', querystring: SignInQuery },
    handler: async (request, reply) => {
      const next = safeNextPath(request.query.next);
      if (request.session.accountId && (await signedInPerson(db, request.session.accountId))) return reply.redirect(next, 303);
      return replyPage(reply, 200, signInPage({ csrfToken: csrfTokenFor(request, reply), next, notice: request.query.out !== undefined ? 'You have signed out.' : undefined }));
    },
  });

  app.post('/sign-in', {
    config: { access: 'public' },
    preHandler: csrf,
    schema: { hide: true, summary: 'Sign in (form: email, password, next, _csrf)', body: SignInForm },
    handler: async (request, reply) => {
      const { email, password } = request.body;
      const next = safeNextPath(request.body.next);
      const now = app.clock();
      const outcome = await signIn(db, attempts, { email, password, ip: request.ip }, now);
      if (outcome.state === 'signed-in') {
        // A new session id at sign-in: an id planted before (fixation) signs no one in.
        await request.session.regenerate();
        request.session.accountId = outcome.accountId;
        request.session.signedInAt = now;
        return reply.redirect(next, 303);
      }
      const form = { csrfToken: csrfTokenFor(request, reply), next, email };
      if (outcome.state === 'limited') return replyPage(reply.header('retry-after', String(outcome.retryAfterSeconds)), 429, signInPage({ ...form, error: tooManyAttemptsMessage(outcome.retryAfterSeconds) }));
      return replyPage(reply, 401, signInPage({ ...form, error: WRONG_SIGN_IN }));
    },
  });

  app.post('/sign-out', {
    config: { access: 'public' },
    preHandler: csrf,
    schema: { hide: true, summary: 'Sign out (form: _csrf)' },
    handler: async (request, reply) => {
      await request.session.destroy();
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.redirect('/sign-in?out', 303);
    },
  });

  app.get('/sign-in/csrf', {
    config: { access: 'public' },
    schema: { hide: true, summary: "The signed-in person's CSRF token for API calls through their session (JSON)" },
    handler: async (request, reply) => {
      const accountId = request.session.accountId;
      const person = accountId ? await signedInPerson(db, accountId) : null;
      if (!person) return reply.code(401).send(failure(ErrorCode.TokenNotFound, 'not signed in: sign in at /sign-in first'));
      return ok({ csrfToken: apiTokens.tokenFor(request.session.sessionId), header: API_CSRF_HEADER });
    },
  });

  app.get('/settings', {
    config: { access: 'public' },
    schema: { hide: true, summary: 'The settings page of the signed-in person', querystring: SettingsQuery },
    handler: async (request, reply) => {
      const person = await personOf(request, reply);
      if (!person) return reply;
      return settingsReply(request, reply, person, { notice: request.query.done ? DONE[request.query.done] : undefined });
    },
  });

  app.post('/settings/password', {
    config: { access: 'public' },
    preHandler: csrf,
    schema: { hide: true, summary: 'Change the password (form: current, password, confirm, _csrf)', body: PasswordForm },
    handler: async (request, reply) => {
      const person = await personOf(request, reply);
      if (!person) return reply;
      const outcome = await changePassword(db, attempts, { accountId: person.id, ...request.body, ip: request.ip }, app.clock());
      if (outcome.state === 'limited') return settingsReply(request, reply.header('retry-after', String(outcome.retryAfterSeconds)), person, { passwordError: tooManyAttemptsMessage(outcome.retryAfterSeconds) }, 429);
      if (outcome.state === 'refused') return settingsReply(request, reply, person, { passwordError: outcome.message }, 400);
      // Everyone else who had this password is signed out; this session goes on under a new id.
      await store.endOthers(person.id, request.session.sessionId);
      await request.session.regenerate(['accountId', 'signedInAt']);
      return reply.redirect('/settings?done=password', 303);
    },
  });

  app.post('/settings/tokens', {
    config: { access: 'public' },
    preHandler: csrf,
    schema: { hide: true, summary: 'Create a personal access token (form: name, scopes, expires, apps, _csrf)', body: TokenForm },
    handler: async (request, reply) => {
      const person = await personOf(request, reply);
      if (!person) return reply;
      const outcome = await createPersonalToken(db, person.id, request.body, app.clock());
      if (outcome.state === 'refused') return settingsReply(request, reply, person, { tokenError: outcome.message }, 400);
      return replyPage(reply, 200, tokenCreatedPage(outcome.token));
    },
  });

  app.post('/settings/tokens/:id/revoke', {
    config: { access: 'public' },
    preHandler: csrf,
    schema: { hide: true, summary: 'Revoke one of my tokens (form: _csrf)', params: TokenParams },
    handler: async (request, reply) => {
      const person = await personOf(request, reply);
      if (!person) return reply;
      await revokePersonalToken(db, person.id, request.params.id, app.clock());
      options.onTokenRevoked(request.params.id);
      return reply.redirect('/settings?done=revoked', 303);
    },
  });
};
