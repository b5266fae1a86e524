import type { Config } from '../config/index.js';
import type { ModelEndpoint } from '../config/model-endpoints.js';
import { answerOf, chatError, completionBody } from './chat-completions.js';
import { streamChatDeltas } from './chat-stream.js';
import { operationUrl, postForJson, serviceNotConfigured } from './model-endpoint.js';

export { ChatModelError } from './chat-completions.js';

/**
 * The language model chatbots answer with: an OpenAI-compatible `POST {LLM_URL}/chat/completions`
 * (OpenAI, Ollama, vLLM, LM Studio, LiteLLM, …), asked for `LLM_MODEL`, whole (`complete`) or as
 * Server-Sent Events (`stream`, the answer's text as it is written).
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  /** The most tokens the answer may have (`max_tokens`). */
  maxTokens?: number;
  /** Ends the call, e.g. when the asking client went away; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface ChatAnswer {
  content: string;
  /** Why the model stopped (`stop`, `length`, …), as it said. */
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
}

/**
 * @example
 * const model = chatModelFor(config)
 * for await (const text of model.stream({ messages })) reply.raw.write(`data: ${JSON.stringify({ text })}\n\n`)
 */
export interface ChatModel {
  readonly model: string;
  /** The whole answer. */
  complete(request: ChatRequest): Promise<ChatAnswer>;
  /** The answer's text in pieces, in order, as the model writes them; ends when the model is done. Stopping the iteration early ends the request. */
  stream(request: ChatRequest): AsyncIterable<string>;
}

/**
 * The chat model of LLM_URL; an AppError naming LLM_URL (error_code 0, HTTP 503) when it is not set.
 * @example const answer = await chatModelFor(config).complete({ messages: [{ role: 'user', content: 'Hello' }] })
 */
export function chatModelFor(config: Pick<Config, 'llm'>): ChatModel {
  if (!config.llm) throw serviceNotConfigured('LLM_URL', 'chatbots answer with a language model');
  return openAiCompatibleChatModel(config.llm);
}

/** The client of one OpenAI-compatible endpoint. */
export function openAiCompatibleChatModel(endpoint: ModelEndpoint): ChatModel {
  const url = operationUrl(endpoint, '/chat/completions');
  return {
    model: endpoint.model,
    async complete(request) {
      const timeout = AbortSignal.timeout(endpoint.timeoutMs);
      const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
      try {
        return answerOf(await postForJson(endpoint, '/chat/completions', completionBody(endpoint, request, false), signal), url);
      } catch (error) {
        throw chatError(error);
      }
    },
    stream: (request) => streamChatDeltas(endpoint, request),
  };
}
