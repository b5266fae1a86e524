import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OpenAI-compatible service on 127.0.0.1 for the tests of embedders, the chat client and
 * chatbots: `POST /v1/embeddings` and `POST /v1/chat/completions`, whole or streamed as
 * Server-Sent Events. It records every request (so that a test can check that the prompt carries
 * the retrieved passages), answers deterministically, and can be told to fail the next requests in
 * the ways real services fail.
 *
 * @example
 * const model = await startFakeModelServer();
 * const config = loadConfig({ LLM_URL: model.url, LLM_MODEL: 'fake-chat' });
 * // … ask; then: expect(model.chatRequests[0].messages.at(-1).content).toContain('refund');
 * await model.close();
 */

export interface RecordedChatMessage {
  role: string;
  content: string;
}

export interface EmbeddingRequest {
  model: string;
  input: string[];
  authorization: string | null;
}

export interface ChatCompletionRequest {
  model: string;
  messages: RecordedChatMessage[];
  stream: boolean;
  temperature?: number;
  max_tokens?: number;
  authorization: string | null;
}

/** How the next request misbehaves instead of answering. */
export type FakeFailure =
  /** An error answer: status, body (default an OpenAI-style error object), headers. */
  | { status: number; body?: string; headers?: Record<string, string> }
  /** No answer at all until the server closes (for timeouts). */
  | { hang: true }
  /** The connection is closed without an answer. */
  | { drop: true }
  /** A streamed answer that sends this many content chunks, then ends without finish reason or [DONE]. */
  | { cutStreamAfter: number }
  /** A streamed answer that sends this many content chunks, then nothing more until the server closes. */
  | { stallStreamAfter: number }
  /** A streamed answer whose second event is an error object (as vLLM and OpenRouter send). */
  | { streamError: string }
  /** A streamed answer that first sends `count` comments (keep-alive lines), one every `everyMs`, then the answer. */
  | { keepAlive: { count: number; everyMs: number } }
  /** The whole JSON answer although a stream was asked for. */
  | { ignoreStream: true }
  /** 200 with a body that is not what the API answers. */
  | { malformed: string }
  /** No failure: answers normally (so that a later request of the list fails). */
  | { pass: true };

export interface FakeModelServer {
  /** The base URL, with /v1: what EMBEDDINGS_URL and LLM_URL are set to. */
  readonly url: string;
  readonly embeddingRequests: EmbeddingRequest[];
  readonly chatRequests: ChatCompletionRequest[];
  /** The size of the vectors it answers (default 16). */
  dimensions: number;
  /** The chat answer for the messages received (default: `Answer to: <last user message>`). */
  answer: (messages: RecordedChatMessage[]) => string;
  /** Characters per streamed content chunk (default 4). */
  chunkChars: number;
  /** The next requests, one failure each, in order; requests after them answer normally. */
  failNext(...failures: FakeFailure[]): void;
  /**
   * Holds the next streamed answer after its first content chunk until the returned function is
   * called, so that a test can see the first piece arrive before the answer is complete.
   */
  holdStreamAfterFirstChunk(): () => void;
  /**
   * Holds the answer to the next embeddings request until the returned function is called, so that
   * a test can act while a job waits for its vectors.
   */
  holdNextEmbeddings(): () => void;
  /** Resolves when the next request has arrived and been recorded (to act on a request the service is holding). */
  nextRequest(): Promise<void>;
  /** Resolves when the client next closes a connection before its answer was complete (it stopped reading, or aborted). */
  nextAbandoned(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The vector of a text: each lower-cased word adds to one bucket chosen by its hash, plus a
 * constant in bucket 0 so that no vector is zero. Deterministic, and texts sharing words are close.
 * Not unit length on purpose: the client must normalise.
 */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  vector[0] = 0.5;
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 7;
    for (const char of word) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
    vector[hash % dimensions]! += 3;
  }
  return vector;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A chunk of a streamed answer, as OpenAI's API writes it. */
function chunkEvent(model: string, delta: Record<string, unknown>, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const failures: FakeFailure[] = [];
  let held: Promise<void> | null = null;
  let heldEmbeddings: Promise<void> | null = null;
  let arrivals: Array<() => void> = [];
  let abandons: Array<() => void> = [];

  const fake: Omit<FakeModelServer, 'url' | 'close'> = {
    embeddingRequests: [],
    chatRequests: [],
    dimensions: 16,
    chunkChars: 4,
    answer: (messages) => `Answer to: ${[...messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`,
    failNext: (...next) => void failures.push(...next),
    nextRequest: () => new Promise<void>((resolve) => arrivals.push(resolve)),
    nextAbandoned: () => new Promise<void>((resolve) => abandons.push(resolve)),
    holdNextEmbeddings() {
      let release!: () => void;
      heldEmbeddings = new Promise((resolve) => (release = resolve));
      return () => release();
    },
    holdStreamAfterFirstChunk() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return () => release();
    },
  };

  async function streamAnswer(response: ServerResponse, model: string, text: string, failure: FakeFailure | undefined): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // A comment first (as some services send to keep the connection open), then the role.
    response.write(': keep-alive\n\n');
    if (failure && 'keepAlive' in failure) {
      for (let i = 0; i < failure.keepAlive.count; i++) {
        await new Promise((resolve) => setTimeout(resolve, failure.keepAlive.everyMs));
        response.write(': keep-alive\n\n');
      }
    }
    response.write(chunkEvent(model, { role: 'assistant', content: '' }));
    const pieces = text.match(new RegExp(`[\\s\\S]{1,${fake.chunkChars}}`, 'gu')) ?? [];
    for (let i = 0; i < pieces.length; i++) {
      if (failure && 'cutStreamAfter' in failure && i === failure.cutStreamAfter) return void response.end();
      if (failure && 'stallStreamAfter' in failure && i === failure.stallStreamAfter) return;
      if (failure && 'streamError' in failure && i === 1) {
        response.write(`data: ${JSON.stringify({ error: { message: failure.streamError, type: 'server_error' } })}\n\n`);
        return void response.end();
      }
      const event = chunkEvent(model, { content: pieces[i] });
      // Each event in two writes, cut in the middle, so that the reader must join events across reads.
      const cut = Math.floor(event.length / 2);
      response.write(event.slice(0, cut));
      response.write(event.slice(cut));
      if (i === 0 && held) {
        const waiting = held;
        held = null;
        await waiting;
      }
    }
    response.write(chunkEvent(model, {}, 'stop'));
    response.end('data: [DONE]\n\n');
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const authorization = request.headers.authorization ?? null;
    const path = request.url ?? '';
    if (request.method !== 'POST' || (path !== '/v1/embeddings' && path !== '/v1/chat/completions')) {
      return sendJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error' } });
    }
    const body = JSON.parse(raw) as Record<string, unknown>;
    const failure = failures.shift();
    if (path === '/v1/embeddings') fake.embeddingRequests.push({ model: String(body.model), input: body.input as string[], authorization });
    else fake.chatRequests.push({ ...(body as unknown as ChatCompletionRequest), stream: body.stream === true, authorization });
    const waiting = arrivals;
    arrivals = [];
    for (const resolve of waiting) resolve();

    if (failure && 'hang' in failure) return;
    if (failure && 'drop' in failure) return void request.socket.destroy();
    if (failure && 'status' in failure) {
      const errorBody = failure.body ?? JSON.stringify({ error: { message: `fake failure ${failure.status}`, type: 'server_error' } });
      return void response.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers }).end(errorBody);
    }
    if (failure && 'malformed' in failure) return void response.writeHead(200, { 'content-type': 'application/json' }).end(failure.malformed);

    const model = String(body.model);
    if (path === '/v1/embeddings' && heldEmbeddings) {
      const waiting = heldEmbeddings;
      heldEmbeddings = null;
      await waiting;
    }
    if (path === '/v1/embeddings') {
      const input = body.input as string[];
      if (input.some((text) => text === '')) return sendJson(response, 400, { error: { message: "'$.input' is invalid: empty string", type: 'invalid_request_error' } });
      return sendJson(response, 200, {
        object: 'list',
        model,
        // Answered in reverse order, each with its index, as the API allows: the client must sort by index.
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, fake.dimensions) })).reverse(),
        usage: { prompt_tokens: input.length, total_tokens: input.length },
      });
    }
    const text = fake.answer(body.messages as RecordedChatMessage[]);
    if (body.stream === true && !(failure && 'ignoreStream' in failure)) return streamAnswer(response, model, text, failure);
    return sendJson(response, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: text.length, total_tokens: 10 + text.length },
    });
  }

  const server = createServer((request, response) => {
    response.on('close', () => {
      if (response.writableFinished) return;
      const waiting = abandons;
      abandons = [];
      for (const resolve of waiting) resolve();
    });
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: error.message } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeModelServer;
}
