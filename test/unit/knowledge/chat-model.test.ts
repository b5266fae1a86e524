import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { chatModelFor, ChatModelError, type ChatModel } from '../../../src/knowledge/chat-model.js';
import { AppError } from '../../../src/shared/app-error.js';
import { startFakeModelServer, type FakeModelServer } from '../../helpers/fake-model-server.js';
import { rejectionOf } from '../../helpers/rejection.js';

/** The OpenAI-compatible chat client against a fake service on 127.0.0.1: whole and streamed answers, failures, aborts. */

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(() => fake.close());
afterEach(() => {
  fake.chatRequests.length = 0;
  fake.chunkChars = 4;
});

function modelOf(extra: Record<string, string> = {}): ChatModel {
  return chatModelFor(loadConfig({ LLM_URL: fake.url, LLM_MODEL: 'fake-chat', ...extra }));
}

const question = [
  { role: 'system' as const, content: 'Answer from the passages.\n[1] Refunds are paid within 14 days.' },
  { role: 'user' as const, content: 'How long do refunds take?' },
];

async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
  const seen: string[] = [];
  for await (const piece of pieces) seen.push(piece);
  return seen;
}

describe('chatModelFor', () => {
  it('names LLM_URL when no model is configured (error_code 0, HTTP 503)', () => {
    let error: unknown;
    try {
      chatModelFor(loadConfig({}));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 0, httpStatus: 503 });
    expect((error as AppError).message).toMatch(/^chatbots answer with a language model, but LLM_URL is not set on this server/);
  });
});

describe('a whole answer', () => {
  it('sends the messages, model, key and options, and returns the answer with its finish reason and usage', async () => {
    const answer = await modelOf({ LLM_API_KEY: 'sk-chat' }).complete({ messages: question, temperature: 0.2, maxTokens: 300 });
    expect(fake.chatRequests).toEqual([{ model: 'fake-chat', messages: question, stream: false, temperature: 0.2, max_tokens: 300, authorization: 'Bearer sk-chat' }]);
    expect(answer).toEqual({ content: 'Answer to: How long do refunds take?', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 36 } });
  });

  it('leaves out options that were not given', async () => {
    await modelOf().complete({ messages: question });
    expect(Object.keys(fake.chatRequests[0]!).sort()).toEqual(['authorization', 'messages', 'model', 'stream']);
  });

  it('a 503 is a transient ChatModelError (HTTP 502 to our caller, the service address only in the details)', async () => {
    fake.failNext({ status: 503 });
    const error = await rejectionOf(modelOf().complete({ messages: question }), ChatModelError);
    expect(error).toMatchObject({ code: 0, httpStatus: 502, transient: true, message: 'the language model failed (HTTP 503); the server log has the details' });
    expect(error.details).toEqual({ llm: `${fake.url}/chat/completions answered 503: fake failure 503` });
  });

  it('a 401 is not transient', async () => {
    fake.failNext({ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }) });
    const error = await rejectionOf(modelOf().complete({ messages: question }), ChatModelError);
    expect(error.transient).toBe(false);
    expect(error.details).toEqual({ llm: `${fake.url}/chat/completions answered 401: Incorrect API key provided` });
  });

  it('LLM_TIMEOUT_MS: no answer in time is a transient ChatModelError with HTTP 504', async () => {
    fake.failNext({ hang: true });
    const error = await rejectionOf(modelOf({ LLM_TIMEOUT_MS: '200' }).complete({ messages: question }), ChatModelError);
    expect(error).toMatchObject({ httpStatus: 504, transient: true, message: 'the language model did not answer in time; the server log has the details' });
  });

  it('an answer without a message is not transient', async () => {
    fake.failNext({ malformed: '{"choices":[]}' });
    const error = await rejectionOf(modelOf().complete({ messages: question }), ChatModelError);
    expect(error.transient).toBe(false);
    expect(error.details).toEqual({ llm: `${fake.url}/chat/completions answered without a message (expected choices[0].message.content)` });
  });

  it("the caller's abort rejects with the abort's reason, not as a model failure", async () => {
    fake.failNext({ hang: true });
    const controller = new AbortController();
    const arrived = fake.nextRequest();
    const pending = modelOf().complete({ messages: question, signal: controller.signal });
    await arrived;
    controller.abort(new Error('client went away'));
    const error = await rejectionOf(pending);
    expect(error).not.toBeInstanceOf(ChatModelError);
    expect((error as Error).message).toBe('client went away');
  });
});

describe('a streamed answer', () => {
  it('yields the text in order, in the pieces the service sent, and asks with stream: true', async () => {
    fake.chunkChars = 3;
    const pieces = await collect(modelOf().stream({ messages: question }));
    expect(fake.chatRequests[0]!.stream).toBe(true);
    expect(pieces.join('')).toBe('Answer to: How long do refunds take?');
    expect(pieces.slice(0, 4)).toEqual(['Ans', 'wer', ' to', ': H']);
    expect(pieces.every((piece) => piece.length > 0)).toBe(true);
  });

  it('keeps characters that a chunk boundary of the network cuts in two', async () => {
    fake.answer = () => 'Rückerstattung in 14 Tagen — 退款需要十四天 😀';
    fake.chunkChars = 1;
    try {
      expect((await collect(modelOf().stream({ messages: question }))).join('')).toBe('Rückerstattung in 14 Tagen — 退款需要十四天 😀');
    } finally {
      fake.answer = (messages) => `Answer to: ${messages.at(-1)?.content ?? ''}`;
    }
  });

  it('gives the first piece before the service has sent the rest', async () => {
    const release = fake.holdStreamAfterFirstChunk();
    const iterator = modelOf().stream({ messages: question })[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first).toEqual({ done: false, value: 'Answ' });
    // The service is still holding the rest: only after release can the answer complete.
    release();
    let rest = '';
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest += next.value;
    expect(`Answ${rest}`).toBe('Answer to: How long do refunds take?');
  });

  it('reads a whole JSON answer from a service that does not stream', async () => {
    fake.failNext({ ignoreStream: true });
    expect(await collect(modelOf().stream({ messages: question }))).toEqual(['Answer to: How long do refunds take?']);
  });

  it('an answer cut off without [DONE] or finish reason is a transient error after the pieces that came', async () => {
    fake.failNext({ cutStreamAfter: 2 });
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const piece of modelOf().stream({ messages: question })) seen.push(piece);
      })(),
      ChatModelError,
    );
    expect(seen).toEqual(['Answ', 'er t']);
    expect(error.transient).toBe(true);
    expect(error.details).toEqual({ llm: `${fake.url}/chat/completions ended its answer before it was complete (no [DONE] and no finish reason)` });
  });

  it('an error event in the stream is an error', async () => {
    fake.failNext({ streamError: 'model overloaded' });
    const error = await rejectionOf(collect(modelOf().stream({ messages: question })), ChatModelError);
    expect(error.details).toEqual({ llm: `${fake.url}/chat/completions failed while answering: model overloaded` });
  });

  it('a failure before the answer starts is the same ChatModelError as for a whole answer', async () => {
    fake.failNext({ status: 429 });
    const error = await rejectionOf(collect(modelOf().stream({ messages: question })), ChatModelError);
    expect(error).toMatchObject({ httpStatus: 502, transient: true });
  });

  it('LLM_TIMEOUT_MS between two events: a stalled stream times out', async () => {
    fake.failNext({ stallStreamAfter: 1 });
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const piece of modelOf({ LLM_TIMEOUT_MS: '300' }).stream({ messages: question })) seen.push(piece);
      })(),
      ChatModelError,
    );
    expect(seen).toEqual(['Answ']);
    expect(error).toMatchObject({ httpStatus: 504, transient: true });
  });

  it('LLM_TIMEOUT_MS: comments (keep-alive lines) count as the service still answering', async () => {
    // 1.5 s of comments, one every 100 ms, then the answer: longer than the 1 s timeout, no gap near it.
    fake.failNext({ keepAlive: { count: 15, everyMs: 100 } });
    const pieces = await collect(modelOf({ LLM_TIMEOUT_MS: '1000' }).stream({ messages: question }));
    expect(pieces.join('')).toBe('Answer to: How long do refunds take?');
  });

  it("stopping the iteration ends the request, and the caller's abort ends the stream with its reason", async () => {
    const release = fake.holdStreamAfterFirstChunk();
    const abandoned = fake.nextAbandoned();
    for await (const piece of modelOf().stream({ messages: question })) {
      expect(piece).toBe('Answ');
      break;
    }
    // The service sees the connection closed while it still holds the rest of the answer.
    await abandoned;
    release();

    fake.failNext({ stallStreamAfter: 1 });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const piece of modelOf().stream({ messages: question, signal: controller.signal })) {
          seen.push(piece);
          controller.abort(new Error('client went away'));
        }
      })(),
    );
    expect(seen).toEqual(['Answ']);
    expect((error as Error).message).toBe('client went away');
  });
});
