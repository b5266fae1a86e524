import type { Kysely } from 'kysely';

/**
 * Chatbots (`modules/chatbots`): an item of an application's navigation (item type 3) that answers
 * questions from the knowledge bases it names (`knowledge_ids`, JSON), through the configured
 * OpenAI-compatible model. `preset_questions` is a JSON array of strings.
 *
 * Conversations are kept per chatbot and per person (`account_id`); their messages in order (`seq`
 * within the conversation), an answer with the passages it cited (`citations`, JSON).
 *
 * `roles.chatbot_permissions` lists, for roles of scope 0, the chatbots their members may use
 * (`[{id, enable}]`, as `page_permissions` does for custom pages).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chatbots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text', (c) => c.notNull())
    .addColumn('welcome_text', 'text', (c) => c.notNull())
    .addColumn('preset_questions', 'text', (c) => c.notNull())
    .addColumn('knowledge_ids', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('icon_color', 'text', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chatbots_app').on('chatbots').columns(['app_id']).execute();

  await db.schema
    .createTable('chatbot_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chatbot_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // A person's conversations with a chatbot, latest first.
  await db.schema.createIndex('chatbot_conversations_owner').on('chatbot_conversations').columns(['chatbot_id', 'account_id', 'updated_at']).execute();

  await db.schema
    .createTable('chatbot_messages')
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('citations', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chatbot_messages_pk', ['conversation_id', 'seq'])
    .execute();

  await db.schema.alterTable('roles').addColumn('chatbot_permissions', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}
