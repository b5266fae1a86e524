import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiProfile } from '../shared/api-profile.js';
import { AppError } from '../shared/app-error.js';
import { failure } from '../shared/envelope.js';
import { ErrorCode, type ErrorCodeValue } from '../shared/error-codes.js';

/** ajv keywords that mean "missing or malformed" (10001); every other failed keyword is a bad value (10002). */
const MALFORMED_KEYWORDS = new Set(['required', 'type', 'additionalProperties', 'maxItems', 'minItems', 'x-lenient-boolean']);

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Names the field a validation issue is about: `body.rows[3].fields`. */
function describeIssue(context: string, issue: ValidationIssue): string {
  const path = issue.instancePath
    .split('/')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
  if (issue.keyword === 'required') return `${context}${path}.${String(issue.params.missingProperty)} is required`;
  if (issue.keyword === 'additionalProperties') {
    return `${context}${path}.${String(issue.params.additionalProperty)} is not a known parameter`;
  }
  return `${context}${path || ''} ${issue.message ?? 'is invalid'}`;
}

interface Refusal {
  status: number;
  code: ErrorCodeValue;
  message: string;
  /** A refusal of the HTTP message itself (too large, not JSON), not of what it asks: keeps its status in every profile. */
  transport?: boolean;
}

/** Turns any thrown thing into (HTTP status, error code, safe message); also for failures inside an event stream, whose status is already sent. */
export function classify(error: FastifyError | AppError | Error): Refusal {
  if (error instanceof AppError) return { status: error.httpStatus, code: error.code, message: error.message };
  const fastifyError = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (fastifyError.validation && fastifyError.validation.length > 0) {
    const issue = fastifyError.validation[0];
    const code = MALFORMED_KEYWORDS.has(issue.keyword) ? ErrorCode.InvalidParameters : ErrorCode.InvalidValue;
    return { status: 400, code, message: describeIssue(fastifyError.validationContext ?? 'body', issue) };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: ErrorCode.InvalidParameters, message: 'request body is larger than the server accepts (BODY_LIMIT)', transport: true };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: ErrorCode.InvalidParameters, message: 'request body must be application/json', transport: true };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: ErrorCode.InvalidParameters, message: 'Content-Length does not match the body', transport: true };
  }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, code: ErrorCode.InvalidParameters, message: `body is not valid JSON: ${error.message}` };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: ErrorCode.InvalidParameters, message: error.message, transport: true };
  }
  return { status: 500, code: ErrorCode.Failed, message: 'internal error; the server log has the details' };
}

/**
 * The HTTP status a refusal is sent with. The public profile answers business errors (bad
 * parameters and values, credentials, permissions, missing records, conflicts) with 200 and the
 * envelope, as the public service does; real failures (5xx) and refusals of the HTTP message keep theirs.
 */
function sentStatus(refusal: Refusal, profile: ApiProfile): number {
  return profile === 'public' && refusal.status < 500 && !refusal.transport ? 200 : refusal.status;
}

/**
 * The one place where failures become the envelope. Unexpected errors are logged in full and
 * reach the client only as a generic message with the request id.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance, options: { profile: ApiProfile }) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const refusal = classify(error);
    const { status, code, message } = refusal;
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    else request.log.debug({ code, message }, 'request refused');
    const text = status >= 500 ? `${message} (request ${request.id})` : message;
    const sent = sentStatus(refusal, options.profile);
    // A failure sent as 200 is not what the route's 200 schema describes: it is serialized as it is.
    if (sent !== status) reply.type('application/json; charset=utf-8').serializer(JSON.stringify);
    return reply.status(sent).send(failure(code, text));
  });
});
