import { parse as parseForm } from 'node:querystring';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serverSecret } from '../../db/server-secrets.js';
import { contextOf } from '../../plugins/service-context.js';
import type { Actor } from '../../shared/actor.js';
import { PasswordAttempts } from './password-attempts.js';
import { cookieOf, PASS_COOKIE, sendOpened, wantsJson, type ShareAnswer } from './share-response.js';
import { SharePasses } from './token.js';
import { openSharedRecord, type ShareViewerKeys } from './viewer-service.js';
import { systemActor } from '../../access/index.js';

const PageParams = Type.Object({ token: Type.String({ description: 'The token of the link (from its url)' }) });
const PageQuery = Type.Object({ tz: Type.Optional(Type.String({ description: 'IANA zone to show date-times in, e.g. Europe/Berlin; default TIME_ZONE' })) });
const PasswordForm = Type.Object({ password: Type.Optional(Type.String()) });
const PASSWORD_WINDOW_MS = 15 * 60_000;
const FORM_BODY_LIMIT = 4096;

/** Nobody, until the service knows the link's application. */
const NO_ACTOR: Actor = systemActor({ job: 'share-page', appId: '', organizationId: '', accountId: 'user-undefined', writes: false });

/**
 * The page a share link opens, outside the API prefixes and without credentials:
 * `GET /share/records/{token}` (HTML, or JSON with `Accept: application/json`) and the password
 * form's `POST` (form-encoded `password`; programs may send `X-Share-Password` instead).
 * Left out of the OpenAPI document, which describes the enveloped JSON interface: the page answers
 * HTML unless asked for JSON (docs/api.md, "Share links").
 */
export const sharePageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const keys: ShareViewerKeys = {
    passes: new SharePasses(await serverSecret(app.database.db, 'share-links')),
    attempts: new PasswordAttempts(app.config.sharePasswordAttempts, PASSWORD_WINDOW_MS),
  };
  const secureCookie = app.config.publicUrl.startsWith('https:');
  // Only these routes read form posts (this plugin is encapsulated).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, { ...parseForm(body as string) }));

  /** Opens the link of the request (with a password given now, if any) and writes the answer. */
  const open = async (request: FastifyRequest<{ Params: { token: string }; Querystring: { tz?: string } }>, reply: FastifyReply, password: string | undefined, formPost: boolean) => {
    const path = `/share/records/${encodeURIComponent(request.params.token)}`;
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const answer: ShareAnswer = { json: wantsJson(request), path, self: path + query, secure: secureCookie, now: app.clock(), formPost };
    const input = { token: request.params.token, password, pass: cookieOf(request, PASS_COOKIE), client: request.ip, timeZone: request.query.tz };
    return sendOpened(reply, await openSharedRecord(contextOf(request.server, NO_ACTOR, request.log), keys, input), answer);
  };
  /** Programs may give the password in a header instead of the form. */
  const headerPassword = (request: FastifyRequest) => {
    const value = request.headers['x-share-password'];
    return typeof value === 'string' ? value : undefined;
  };

  app.get('/share/records/:token', {
    config: { access: 'public' },
    schema: { hide: true, summary: 'Open a shared record: a read-only page, or its data as JSON', params: PageParams, querystring: PageQuery },
    handler: async (request, reply) => open(request, reply, headerPassword(request), false),
  });

  app.post('/share/records/:token', {
    config: { access: 'public' },
    bodyLimit: FORM_BODY_LIMIT,
    schema: { hide: true, summary: "Give a shared record's password (form field password)", params: PageParams, querystring: PageQuery, body: PasswordForm },
    handler: async (request, reply) => open(request, reply, request.body.password ?? headerPassword(request), true),
  });
};
