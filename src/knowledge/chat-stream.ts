import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { ModelEndpoint } from '../config/model-endpoints.js';
import { answerOf, chatError, completionBody } from './chat-completions.js';
import type { ChatRequest } from './chat-model.js';
import { failureOfThrown, ModelCallFailure, operationUrl, postJson, serviceMessage } from './model-endpoint.js';

/**
 * A streamed chat answer: `stream: true` makes an OpenAI-compatible service answer Server-Sent
 * Events, each `data:` a JSON chunk whose `choices[0].delta.content` is the next piece of text,
 * and a last `data: [DONE]`. The events are read with eventsource-parser (events split across
 * network reads, several in one read, comments, CRLF) and yielded as text pieces, in order.
 * - Timeout: `LLM_TIMEOUT_MS` for the answer to start and again between two events (a comment
 *   counts: some services send them to keep the connection open), not for the whole answer, which
 *   may rightly take minutes.
 * - An answer that ends without `[DONE]` and without a finish reason was cut off: an error, not a
 *   short answer. An `error` object in an event (vLLM, OpenRouter) is an error.
 * - A service that answers the whole JSON although asked to stream is read as one piece.
 * - Stopping the iteration, or `request.signal`, ends the request.
 */

/** The longest event we hold while it arrives; a stream that never ends its event is not buffered without end. */
const MAX_EVENT_CHARS = 1024 * 1024;

interface StreamChunk {
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
  error?: unknown;
}

/** The text pieces of one streamed answer. Throws `ChatModelError` when the service fails, before or during the answer. */
export async function* streamChatDeltas(endpoint: ModelEndpoint, request: ChatRequest): AsyncGenerator<string, void, undefined> {
  const url = operationUrl(endpoint, '/chat/completions');
  const stop = new AbortController();
  const signal = request.signal ? AbortSignal.any([stop.signal, request.signal]) : stop.signal;
  let idle: NodeJS.Timeout | undefined;
  const waitAgain = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop.abort(new ModelCallFailure(`${url} did not answer in time`, { transient: true, timedOut: true })), endpoint.timeoutMs);
  };
  waitAgain();
  try {
    const response = await postJson(endpoint, '/chat/completions', completionBody(endpoint, request, true), signal);
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ModelCallFailure(`${url} answered neither events nor JSON (${serviceMessage(text) || 'an empty body'})`, { transient: false, status: response.status });
      }
      const { content } = answerOf(body, url);
      if (content !== '') yield content;
      return;
    }
    const events = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream({ onComment: waitAgain, maxBufferSize: MAX_EVENT_CHARS }));
    let finished = false;
    for await (const event of events) {
      waitAgain();
      if (event.data.trim() === '[DONE]') return;
      const piece = pieceOf(event.data, url);
      if (piece.finished) finished = true;
      if (piece.text !== '') yield piece.text;
    }
    if (!finished) throw new ModelCallFailure(`${url} ended its answer before it was complete (no [DONE] and no finish reason)`, { transient: true, status: response.status });
  } catch (error) {
    throw chatError(failureOfThrown(error, url, signal));
  } finally {
    // A reader that stops early ends the request through the for-await loop, which cancels the body.
    clearTimeout(idle);
  }
}

/** One event's text and whether it says the answer is complete. */
function pieceOf(data: string, url: string): { text: string; finished: boolean } {
  let chunk: StreamChunk;
  try {
    chunk = JSON.parse(data) as StreamChunk;
  } catch {
    throw new ModelCallFailure(`${url} sent an event that is not JSON: ${serviceMessage(data)}`, { transient: false });
  }
  if (chunk.error !== undefined && chunk.error !== null) {
    throw new ModelCallFailure(`${url} failed while answering: ${serviceMessage(JSON.stringify({ error: chunk.error }))}`, { transient: true });
  }
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  const content = choice?.delta?.content;
  return { text: typeof content === 'string' ? content : '', finished: typeof choice?.finish_reason === 'string' };
}
