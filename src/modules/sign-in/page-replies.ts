import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/app-error.js';
import { messagePage, PAGE_CONTENT_SECURITY_POLICY } from './layout.js';

/** Every answer of the pages: our policy, no framing, no sniffing, no referrer (a `?next=` stays here), no caching. */
export function securePage(reply: FastifyReply): FastifyReply {
  // A page may widen the policy it was given (the consent page lets its form lead to the client).
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', PAGE_CONTENT_SECURITY_POLICY);
  return reply
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

export function replyPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

const BACK = { href: '/settings', label: 'Back to settings' };

/**
 * The pages' one error handler: a refusal becomes a page that says what happened, never the API's
 * JSON envelope. A form without a valid CSRF token (403), a malformed form (400), a refusal of a
 * service (its status and message), and anything unexpected (500, logged in full).
 */
export function pageErrorHandler(thrown: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (thrown instanceof AppError && thrown.httpStatus < 500) return replyPage(reply, thrown.httpStatus, messagePage('Not possible', thrown.message, BACK));
  const error = thrown as FastifyError;
  if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
    return replyPage(reply, 403, messagePage('This form has expired', 'The form was not sent from a current page of this server. Go back, reload the page and try again.', BACK));
  }
  if (error.validation) return replyPage(reply, 400, messagePage('The form is incomplete', `The form was not filled in as expected (${error.message}).`, BACK));
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) return replyPage(reply, error.statusCode, messagePage('Not possible', error.message, BACK));
  request.log.error({ err: error }, 'unexpected error on a page');
  return replyPage(reply, 500, messagePage('Something went wrong', `The server could not do this; its log has the details (request ${request.id}).`, BACK));
}
