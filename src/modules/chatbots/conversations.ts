import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import * as repository from './repository.js';
import { loadChatbot } from './service.js';

/**
 * Conversations with a chatbot, kept per person: each caller lists, reads and deletes only their
 * own (an app key's calls are all the pseudo-user `user-api`'s, and share its conversations).
 */

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

function summary(row: repository.ConversationRow) {
  return { id: row.id, title: row.title, messageCount: Number(row.message_count), _createdAt: iso(row.created_at), _updatedAt: iso(row.updated_at) };
}

export async function listConversations(ctx: ServiceContext, chatbotId: string, page: { pageIndex?: number; pageSize?: number }) {
  const chatbot = await loadChatbot(ctx, chatbotId);
  const pageSize = page.pageSize ?? 20;
  const { rows, total } = await repository.conversationsOf(ctx.db, chatbot.id, ctx.actor.accountId, pageSize, ((page.pageIndex ?? 1) - 1) * pageSize);
  return { conversations: rows.map(summary), total };
}

/** One of the caller's conversations with a chatbot (10007 when it is someone else's). */
export async function loadConversation(ctx: ServiceContext, chatbotId: string, conversationId: string) {
  const conversation = await repository.findConversation(ctx.db, chatbotId, ctx.actor.accountId, conversationId);
  if (!conversation) throw AppError.notFound(`conversationId: no conversation "${conversationId.slice(0, 80)}" of yours with this chatbot`);
  return conversation;
}

export async function getConversation(ctx: ServiceContext, chatbotId: string, conversationId: string) {
  const chatbot = await loadChatbot(ctx, chatbotId);
  const conversation = await loadConversation(ctx, chatbot.id, conversationId);
  const messages = await repository.messagesOf(ctx.db, conversation.id);
  return {
    ...summary(conversation),
    chatbotId: chatbot.id,
    messages: messages.map((m) => ({ id: m.id, role: m.role as 'user' | 'assistant', content: m.content, citations: m.citations ? (JSON.parse(m.citations) as Array<{ index: number; content: string; score: number; source: Record<string, unknown> }>) : [], _createdAt: iso(m.created_at) })),
  };
}

export async function deleteConversation(ctx: ServiceContext, chatbotId: string, conversationId: string): Promise<void> {
  const chatbot = await loadChatbot(ctx, chatbotId);
  const conversation = await loadConversation(ctx, chatbot.id, conversationId);
  await inTransaction(ctx.db, (trx) => repository.deleteConversation(trx, conversation.id));
}
