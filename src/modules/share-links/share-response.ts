import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure, ok } from '../../shared/envelope.js';
import { ErrorCode, type ErrorCodeValue } from '../../shared/error-codes.js';
import type { Opened } from './viewer-service.js';
import * as pages from './share-page.js';

/** The cookie that holds a link's pass; scoped to the link's own path, so each link has its own. */
export const PASS_COOKIE = 'share_pass';

/** How the answer is written: for a browser (HTML) or a program (JSON), and where the page lives. */
export interface ShareAnswer {
  json: boolean;
  /** The page's path, `/share/records/{token}` (the pass cookie's Path). */
  path: string;
  /** The page's path with its query (`?tz=`), where the form posts and a right password returns to. */
  self: string;
  /** Whether the cookie may only travel over HTTPS (PUBLIC_URL is https). */
  secure: boolean;
  now: number;
  /** A form post: a right password is answered with a redirect to the page (post, redirect, get). */
  formPost: boolean;
}

/** Programs ask for JSON (`Accept: application/json`); browsers, which accept text/html, get the page. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}

/** The value of one cookie of the request. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** Every answer of the share page, HTML or JSON: no framing, no sniffing, no referrer, no caching. */
function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', pages.CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

interface Refusal {
  status: number;
  code: ErrorCodeValue;
  message: string;
  page: () => string;
}

/** Every state but `open`, as a status, an error code and message for programs, and a page for people. */
function refusalOf(opened: Exclude<Opened, { state: 'open' }>, answer: ShareAnswer): Refusal {
  switch (opened.state) {
    case 'unknown':
      return { status: 404, code: ErrorCode.NotFound, message: 'this share link does not exist', page: pages.unknownPage };
    case 'gone': {
      const message = { expired: 'this share link has expired', revoked: 'this share link was revoked', deleted: 'the shared record was deleted' }[opened.reason];
      return { status: 410, code: ErrorCode.NotFound, message, page: () => pages.gonePage(opened.reason) };
    }
    case 'password':
      return opened.wrong
        ? { status: 401, code: ErrorCode.InvalidSignature, message: 'wrong password for this share link', page: () => pages.passwordPage(answer.self, true) }
        : { status: 401, code: ErrorCode.TokenNotFound, message: 'this share link needs a password: send it in the X-Share-Password header', page: () => pages.passwordPage(answer.self, false) };
    case 'limited':
      return { status: 429, code: ErrorCode.RateLimited, message: `too many wrong passwords: try again in ${opened.retryAfterSeconds} seconds`, page: () => pages.limitedPage(opened.retryAfterSeconds) };
    case 'bad-zone':
      return { status: 400, code: ErrorCode.InvalidValue, message: `tz: "${opened.zone.slice(0, 60)}" is not a time zone such as Europe/Berlin`, page: () => pages.badZonePage(opened.zone) };
  }
}

function passCookie(value: string, answer: ShareAnswer, expiresAt: number | null): string {
  const parts = [`${PASS_COOKIE}=${value}`, `Path=${answer.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (expiresAt !== null) parts.push(`Max-Age=${Math.max(1, Math.ceil((expiresAt - answer.now) / 1000))}`);
  if (answer.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Writes what opening a link came to, as the page or as the envelope. */
export function sendOpened(reply: FastifyReply, opened: Opened, answer: ShareAnswer): FastifyReply {
  secure(reply);
  if (opened.state === 'limited') reply.header('retry-after', String(opened.retryAfterSeconds));
  if (opened.state !== 'open') {
    const refusal = refusalOf(opened, answer);
    reply.code(refusal.status);
    return answer.json ? reply.send(failure(refusal.code, refusal.message)) : reply.type('text/html; charset=utf-8').send(refusal.page());
  }
  if (opened.issuedPass) reply.header('set-cookie', passCookie(opened.issuedPass, answer, opened.expiresAt));
  if (answer.json) return reply.send(ok(opened.view));
  if (answer.formPost && opened.issuedPass) return reply.code(303).header('location', answer.self).send();
  return reply.type('text/html; charset=utf-8').send(pages.recordPage(opened.view));
}
