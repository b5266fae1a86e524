import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { failure } from '../shared/envelope.js';
import { ErrorCode } from '../shared/error-codes.js';

/**
 * Refusals that happen before a route is found, answered with the envelope like everything else.
 * Fastify reports them through two options of its own rather than through the error handler:
 * `frameworkErrors` (bad percent-encoding, an over-long path parameter) while a reply can still be
 * built, and `clientErrorHandler` when Node's HTTP parser gives up on the bytes (a malformed request
 * line, chunk size or header, headers over the size limit), where only the raw socket is left.
 */

/** Longest path parameter accepted: ids are at most 36 characters and aliases 64; 256 leaves room. */
export const MAX_PATH_PARAMETER_LENGTH = 256;

export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const path = request.raw.url?.split('?')[0] ?? '';
  const shown = path.length > 80 ? `${path.slice(0, 77)}...` : path;
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send(failure(ErrorCode.InvalidParameters, `a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters: ${shown}`));
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send(failure(ErrorCode.InvalidParameters, `the path is not valid percent-encoded UTF-8: ${shown}`));
  }
  request.log.error({ err: error }, 'framework error');
  return reply.status(500).send(failure(ErrorCode.Failed, `internal error; the server log has the details (request ${request.id})`));
};

function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'the request headers are larger than the server accepts' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'the request was not received in time' };
  return { status: 400, message: 'the request is not well-formed HTTP' };
}

/**
 * Answers a request Node could not parse with the envelope, when the socket can still be written
 * to, and closes the connection: after a parse error the rest of the stream cannot be trusted.
 */
export function clientErrorHandler(this: { log: { trace(obj: object, msg: string): void } }, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.trace({ err: error }, 'client error');
  const { status, message } = clientErrorAnswer(error.code);
  if (socket.writable) {
    const body = JSON.stringify(failure(ErrorCode.InvalidParameters, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
