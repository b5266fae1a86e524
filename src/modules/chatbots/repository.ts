import type { Executor } from '../../db/connection.js';
import type { Selectable } from 'kysely';
import type { MetaSchema } from '../../db/schema.js';

/** The SQL of chatbots and their conversations. */

export type ChatbotRow = MetaSchema['chatbots'];

export async function findChatbot(db: Executor, appId: string, id: string): Promise<ChatbotRow | undefined> {
  return db.selectFrom('chatbots').selectAll().where('id', '=', id).where('app_id', '=', appId).executeTakeFirst();
}

export async function chatbotsOfApp(db: Executor, appId: string): Promise<ChatbotRow[]> {
  return db.selectFrom('chatbots').selectAll().where('app_id', '=', appId).orderBy('created_at').orderBy('id').execute();
}

export async function insertChatbot(db: Executor, row: ChatbotRow): Promise<void> {
  await db.insertInto('chatbots').values(row).execute();
}

export async function updateChatbot(db: Executor, id: string, changes: Partial<ChatbotRow>): Promise<void> {
  await db.updateTable('chatbots').set(changes).where('id', '=', id).execute();
}

/** Removes a chatbot with its conversations and their messages. */
export async function deleteChatbot(db: Executor, id: string): Promise<void> {
  const conversations = db.selectFrom('chatbot_conversations').select('id').where('chatbot_id', '=', id);
  await db.deleteFrom('chatbot_messages').where('conversation_id', 'in', conversations).execute();
  await db.deleteFrom('chatbot_conversations').where('chatbot_id', '=', id).execute();
  await db.deleteFrom('chatbots').where('id', '=', id).execute();
}

/** Removes every chatbot of an application with their conversations and messages (the application's deletion). */
export async function deleteChatbotsOfApp(db: Executor, appId: string): Promise<void> {
  const chatbots = db.selectFrom('chatbots').select('id').where('app_id', '=', appId);
  const conversations = db.selectFrom('chatbot_conversations').select('id').where('chatbot_id', 'in', chatbots);
  await db.deleteFrom('chatbot_messages').where('conversation_id', 'in', conversations).execute();
  await db.deleteFrom('chatbot_conversations').where('chatbot_id', 'in', chatbots).execute();
  await db.deleteFrom('chatbots').where('app_id', '=', appId).execute();
}

/** Which of these ids are knowledge bases of the application. */
export async function existingKnowledgeBases(db: Executor, appId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('knowledge_bases').select('id').where('app_id', '=', appId).where('id', 'in', [...ids]).execute();
  return new Set(rows.map((row) => row.id));
}

export type ConversationRow = Selectable<MetaSchema['chatbot_conversations']>;

export async function conversationsOf(db: Executor, chatbotId: string, accountId: string, limit: number, offset: number): Promise<{ rows: ConversationRow[]; total: number }> {
  const mine = db.selectFrom('chatbot_conversations').where('chatbot_id', '=', chatbotId).where('account_id', '=', accountId);
  const rows = await mine.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  const counted = await mine.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(counted.n) };
}

export async function findConversation(db: Executor, chatbotId: string, accountId: string, id: string): Promise<ConversationRow | undefined> {
  return db.selectFrom('chatbot_conversations').selectAll().where('id', '=', id).where('chatbot_id', '=', chatbotId).where('account_id', '=', accountId).executeTakeFirst();
}

export async function messagesOf(db: Executor, conversationId: string) {
  return db.selectFrom('chatbot_messages').selectAll().where('conversation_id', '=', conversationId).orderBy('seq').execute();
}

export async function deleteConversation(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('chatbot_messages').where('conversation_id', '=', id).execute();
  await db.deleteFrom('chatbot_conversations').where('id', '=', id).execute();
}

export async function insertConversation(db: Executor, row: Omit<ConversationRow, 'message_count'>): Promise<void> {
  await db.insertInto('chatbot_conversations').values(row).execute();
}

/** Raises a conversation's message count by `count` and returns the new count: the last of the numbers reserved. */
export async function reserveMessages(db: Executor, conversationId: string, count: number, now: number): Promise<number> {
  await db.updateTable('chatbot_conversations').set((eb) => ({ message_count: eb('message_count', '+', count), updated_at: now })).where('id', '=', conversationId).execute();
  const row = await db.selectFrom('chatbot_conversations').select('message_count').where('id', '=', conversationId).executeTakeFirstOrThrow();
  return Number(row.message_count);
}

export async function insertMessages(db: Executor, rows: Array<MetaSchema['chatbot_messages']>): Promise<void> {
  await db.insertInto('chatbot_messages').values(rows).execute();
}

/** The last `count` messages of a conversation, oldest first. */
export async function lastMessages(db: Executor, conversationId: string, count: number) {
  const rows = await db.selectFrom('chatbot_messages').select(['role', 'content', 'seq']).where('conversation_id', '=', conversationId).orderBy('seq', 'desc').limit(count).execute();
  return rows.reverse();
}
