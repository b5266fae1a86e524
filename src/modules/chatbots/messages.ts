import type { ChatMessage, ChatModel } from '../../knowledge/chat-model.js';
import type { Retrieve, RetrievedPassage } from '../../knowledge/retrieval.js';
import { inTransaction } from '../../db/transaction.js';
import { newObjectId, newRowId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadConversation } from './conversations.js';
import { citationsOf, groundedMessages, HISTORY_MESSAGES, type Citation } from './grounding.js';
import * as repository from './repository.js';
import { loadChatbot } from './service.js';

/**
 * Asking a chatbot: the question is searched in the chatbot's knowledge bases under the caller's
 * permissions (the same `Retrieve` as `POST /v3/app/knowledge/search`, so that a chatbot never
 * tells anyone more than they could search), the passages found go to the model with the question
 * and the conversation so far, and the answer comes back with the passages it cites. The question
 * and the answer are kept together once the answer is whole; a turn the model failed is not kept.
 */

export interface MessageInput {
  conversationId?: string;
  message: string;
  /** How many passages to ground the answer in (1–20, default 5). */
  topK?: number;
}

/** What answering needs beyond the context: the model (throws naming LLM_URL when none is set) and retrieval. */
export interface AnswerDeps {
  chatModel: () => ChatModel;
  retrieve: Retrieve;
}

export interface AnsweredMessage {
  conversationId: string;
  messageId: string;
  answer: string;
  citations: Citation[];
}

/** Everything up to the model call: the chatbot, the conversation's id and history, the passages, the request. */
interface PreparedTurn {
  chatbotId: string;
  conversationId: string;
  isNew: boolean;
  question: string;
  passages: RetrievedPassage[];
  messages: ChatMessage[];
  model: ChatModel;
}

const TITLE_LENGTH = 80;

async function prepareTurn(ctx: ServiceContext, deps: AnswerDeps, chatbotId: string, input: MessageInput): Promise<PreparedTurn> {
  const chatbot = await loadChatbot(ctx, chatbotId);
  // Asked first, so that a server without a model refuses before anything is searched or kept.
  const model = deps.chatModel();
  const question = input.message.trim();
  let history: ChatMessage[] = [];
  if (input.conversationId) {
    const conversation = await loadConversation(ctx, chatbot.id, input.conversationId);
    history = (await repository.lastMessages(ctx.db, conversation.id, HISTORY_MESSAGES)).map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
  }
  const knowledgeIds = JSON.parse(chatbot.knowledge_ids) as string[];
  const passages = knowledgeIds.length === 0 ? [] : await deps.retrieve(ctx, { knowledgeIds, query: question, topK: input.topK ?? 5, mode: 'hybrid' });
  return {
    chatbotId: chatbot.id,
    conversationId: input.conversationId ?? newObjectId(),
    isNew: !input.conversationId,
    question,
    passages,
    messages: groundedMessages(chatbot.prompt, passages, history, question),
    model,
  };
}

/** Keeps the question and its answer, in one transaction, numbering them after the conversation's last message. */
async function keepTurn(ctx: ServiceContext, turn: PreparedTurn, answer: string, citations: Citation[]): Promise<string> {
  const now = ctx.now();
  const answerId = newRowId();
  await inTransaction(ctx.db, async (trx) => {
    if (turn.isNew) await repository.insertConversation(trx, { id: turn.conversationId, chatbot_id: turn.chatbotId, account_id: ctx.actor.accountId, title: turn.question.slice(0, TITLE_LENGTH), created_at: now, updated_at: now });
    // Reserving the two numbers in the conversation's row orders turns sent at once (PostgreSQL locks the row).
    const last = await repository.reserveMessages(trx, turn.conversationId, 2, now);
    await repository.insertMessages(trx, [
      { conversation_id: turn.conversationId, seq: last - 1, id: newRowId(), role: 'user', content: turn.question, citations: null, created_at: now },
      { conversation_id: turn.conversationId, seq: last, id: answerId, role: 'assistant', content: answer, citations: JSON.stringify(citations), created_at: now },
    ]);
  });
  return answerId;
}

/**
 * Asks a chatbot and waits for the whole answer.
 * @example await sendMessage(ctx, deps, chatbotId, { message: 'How many days of leave do I get?' })
 */
export async function sendMessage(ctx: ServiceContext, deps: AnswerDeps, chatbotId: string, input: MessageInput): Promise<AnsweredMessage> {
  const turn = await prepareTurn(ctx, deps, chatbotId, input);
  const answer = (await turn.model.complete({ messages: turn.messages })).content;
  const citations = citationsOf(answer, turn.passages);
  const messageId = await keepTurn(ctx, turn, answer, citations);
  return { conversationId: turn.conversationId, messageId, answer, citations };
}

/** The events of a streamed answer, in order: the conversation, the answer's text in pieces, the end with its citations. */
export type AnswerEvent = { event: 'conversation'; data: { conversationId: string } } | { event: 'delta'; data: { text: string } } | { event: 'done'; data: AnsweredMessage };

/**
 * Asks a chatbot and yields the answer as the model writes it. Errors before the first event
 * (an unknown chatbot, no model configured) are thrown as usual; later ones end the iteration.
 * Stopping the iteration early (the client went away) ends the model's request and keeps nothing.
 */
export async function streamMessage(ctx: ServiceContext, deps: AnswerDeps, chatbotId: string, input: MessageInput, signal?: AbortSignal): Promise<AsyncIterable<AnswerEvent>> {
  const turn = await prepareTurn(ctx, deps, chatbotId, input);
  return (async function* () {
    yield { event: 'conversation', data: { conversationId: turn.conversationId } } as const;
    let answer = '';
    for await (const text of turn.model.stream({ messages: turn.messages, ...(signal ? { signal } : {}) })) {
      answer += text;
      yield { event: 'delta', data: { text } } as const;
    }
    const citations = citationsOf(answer, turn.passages);
    const messageId = await keepTurn(ctx, turn, answer, citations);
    yield { event: 'done', data: { conversationId: turn.conversationId, messageId, answer, citations } } as const;
  })();
}
