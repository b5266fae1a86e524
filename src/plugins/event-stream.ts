import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure } from '../shared/envelope.js';
import { classify } from './error-handler.js';

/** One Server-Sent Event: its name and its data, sent as JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

function frame(event: StreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * Sends `events` as Server-Sent Events (`text/event-stream`), each as it comes. The status and the
 * headers go first, so a failure after that cannot change them: it is sent as a last event `error`
 * with the envelope's `error_code` and `error_msg` (logged in full when unexpected), and the stream
 * ends. When the client goes away first, `abort` is aborted, so the work behind the events stops.
 * Failures before the stream (thrown while `events` is made) go through the error handler as usual.
 * @example return sendEventStream(request, reply, await service.streamMessage(ctx, …, abort.signal), abort)
 */
export async function sendEventStream(request: FastifyRequest, reply: FastifyReply, events: AsyncIterable<StreamEvent>, abort: AbortController): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  // Headers set by hooks so far (rate limits, request id) travel with the stream.
  const set = Object.fromEntries(Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined));
  raw.writeHead(200, { ...set, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  let ended = false;
  const gone = () => {
    if (!ended) abort.abort(new Error('the client closed the connection'));
  };
  raw.on('close', gone);
  try {
    for await (const event of events) {
      if (abort.signal.aborted) break;
      raw.write(frame(event));
    }
  } catch (error) {
    if (!abort.signal.aborted) {
      const refusal = classify(error as Error);
      if (refusal.status >= 500) request.log.error({ err: error }, 'unexpected error in an event stream');
      raw.write(frame({ event: 'error', data: failure(refusal.code, refusal.status >= 500 ? `${refusal.message} (request ${request.id})` : refusal.message) }));
    }
  } finally {
    ended = true;
    raw.off('close', gone);
    raw.end();
  }
}
