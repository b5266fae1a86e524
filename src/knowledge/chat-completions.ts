import type { ModelEndpoint } from '../config/model-endpoints.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { ChatAnswer, ChatRequest } from './chat-model.js';
import { ModelCallFailure } from './model-endpoint.js';

/**
 * The wire format of `POST /chat/completions` that both the whole and the streamed call share: the
 * request body, the whole answer, and how a failure of the service reaches our caller.
 */

/**
 * The model failed: error_code 0 ("request failed") with HTTP 504 when it did not answer in time,
 * 502 (a bad gateway: the service behind us failed) otherwise. The message is for the caller and
 * does not name the service's address; `details` (logged) has the whole story.
 */
export class ChatModelError extends AppError {
  constructor(readonly failure: ModelCallFailure) {
    const what = failure.timedOut ? 'did not answer in time' : failure.status === null ? 'could not be reached' : `failed (HTTP ${failure.status})`;
    super(ErrorCode.Failed, failure.timedOut ? 504 : 502, `the language model ${what}; the server log has the details`, { llm: failure.message });
    this.name = 'ChatModelError';
  }

  /** Whether asking again later may pass (no connection, timeout, 429, 5xx). */
  get transient(): boolean {
    return this.failure.transient;
  }
}

interface CompletionAnswer {
  choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/** The body both calls send. */
export function completionBody(endpoint: ModelEndpoint, request: ChatRequest, stream: boolean): Record<string, unknown> {
  return {
    model: endpoint.model,
    messages: request.messages,
    stream,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
  };
}

/** A whole (not streamed) answer read from its JSON; a `ModelCallFailure` when it has no message. */
export function answerOf(body: unknown, url: string): ChatAnswer {
  const answer = body as CompletionAnswer | null;
  const choice = Array.isArray(answer?.choices) ? answer.choices[0] : undefined;
  const content = choice?.message?.content;
  if (!choice || (content !== null && content !== undefined && typeof content !== 'string')) {
    throw new ModelCallFailure(`${url} answered without a message (expected choices[0].message.content)`, { transient: false, status: 200 });
  }
  const usage = answer?.usage;
  return {
    content: typeof content === 'string' ? content : '',
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    usage: typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number' ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : null,
  };
}

/** A failure of the call as the error it is thrown as: a service failure becomes a `ChatModelError`; the caller's abort stays as it came. */
export function chatError(error: unknown): unknown {
  return error instanceof ModelCallFailure ? new ChatModelError(error) : error;
}
