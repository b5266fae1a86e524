import { seesChatbot } from '../../access/index.js';
import type { Executor } from '../../db/connection.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { ItemType, moveItem, placeItem, removeItem, renameItem, resolveSection, sectionsOfItems } from '../navigation/index.js';
import * as repository from './repository.js';

/**
 * Chatbots: an item of the application's navigation that answers questions from knowledge bases
 * (`messages.ts`). Administrators create, change and delete them; a member sees the ones their
 * roles enable (`chatbotPermissions`); one they may not see does not exist for them (10007).
 */

interface ChatbotSettings {
  prompt?: string;
  welcomeText?: string;
  presetQuestions?: string[];
  knowledgeIds?: string[];
  icon?: string;
  iconColor?: string;
  remark?: string;
}

export interface CreateChatbotInput extends ChatbotSettings {
  name: string;
  sectionId?: string;
}

export interface UpdateChatbotInput extends ChatbotSettings {
  name?: string;
  sectionId?: string;
}

function present(row: repository.ChatbotRow, sectionId: string) {
  return {
    id: row.id,
    name: row.name,
    sectionId,
    prompt: row.prompt,
    welcomeText: row.welcome_text,
    presetQuestions: JSON.parse(row.preset_questions) as string[],
    knowledgeIds: JSON.parse(row.knowledge_ids) as string[],
    icon: row.icon,
    iconColor: row.icon_color,
    remark: row.remark,
    _createdAt: new Date(Number(row.created_at)).toISOString(),
    _updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

function nameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw AppError.invalidParameters('name is required');
  return trimmed;
}

/** The knowledge bases named, each once, each of this application (10002 naming the one that is not). */
async function checkedKnowledgeIds(ctx: ServiceContext, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await repository.existingKnowledgeBases(ctx.db, ctx.actor.appId, unique);
  const missing = unique.findIndex((id) => !found.has(id));
  if (missing >= 0) throw AppError.invalidValue(`knowledgeIds[${ids.indexOf(unique[missing]!)}]: no knowledge base "${unique[missing]!.slice(0, 80)}" in this application`);
  return unique;
}

function presetQuestionsOf(questions: string[]): string[] {
  return questions.map((q) => q.trim()).filter((q) => q !== '');
}

/** A chatbot of the application the caller may see. */
export async function loadChatbot(ctx: ServiceContext, chatbotId: string): Promise<repository.ChatbotRow> {
  const row = await repository.findChatbot(ctx.db, ctx.actor.appId, chatbotId);
  if (!row || !seesChatbot(ctx.actor, row.id)) throw AppError.notFound(`chatbot_id: no chatbot "${chatbotId.slice(0, 80)}" in this application`);
  return row;
}

async function presented(ctx: ServiceContext, row: repository.ChatbotRow) {
  const sections = await sectionsOfItems(ctx.db, [row.id]);
  return present(row, sections.get(row.id) ?? '');
}

export async function createChatbot(ctx: ServiceContext, input: CreateChatbotInput): Promise<{ id: string }> {
  const name = nameOf(input.name);
  const knowledgeIds = await checkedKnowledgeIds(ctx, input.knowledgeIds ?? []);
  const id = newObjectId();
  const now = ctx.now();
  await inTransaction(ctx.db, async (trx) => {
    const sectionId = await resolveSection(trx, ctx.actor.appId, input.sectionId, now, 'sectionId');
    await repository.insertChatbot(trx, {
      id,
      app_id: ctx.actor.appId,
      name,
      prompt: input.prompt ?? '',
      welcome_text: input.welcomeText ?? '',
      preset_questions: JSON.stringify(presetQuestionsOf(input.presetQuestions ?? [])),
      knowledge_ids: JSON.stringify(knowledgeIds),
      icon: input.icon ?? '',
      icon_color: input.iconColor ?? '',
      remark: input.remark ?? '',
      created_by: ctx.actor.accountId,
      created_at: now,
      updated_at: now,
    });
    await placeItem(trx, ctx.actor.appId, { id, type: ItemType.Chatbot, name, sectionId }, now);
  });
  return { id };
}

export async function getChatbot(ctx: ServiceContext, chatbotId: string) {
  return presented(ctx, await loadChatbot(ctx, chatbotId));
}

/** The chatbots of the application the caller may see, oldest first. */
export async function listChatbots(ctx: ServiceContext) {
  const rows = (await repository.chatbotsOfApp(ctx.db, ctx.actor.appId)).filter((row) => seesChatbot(ctx.actor, row.id));
  const sections = await sectionsOfItems(ctx.db, rows.map((row) => row.id));
  return { chatbots: rows.map((row) => present(row, sections.get(row.id) ?? '')) };
}

/** Changes the keys sent; `presetQuestions` and `knowledgeIds` replace the whole list. */
export async function updateChatbot(ctx: ServiceContext, chatbotId: string, input: UpdateChatbotInput) {
  const row = await loadChatbot(ctx, chatbotId);
  const changes: Partial<repository.ChatbotRow> = { updated_at: ctx.now() };
  if (input.name !== undefined) changes.name = nameOf(input.name);
  if (input.prompt !== undefined) changes.prompt = input.prompt;
  if (input.welcomeText !== undefined) changes.welcome_text = input.welcomeText;
  if (input.presetQuestions !== undefined) changes.preset_questions = JSON.stringify(presetQuestionsOf(input.presetQuestions));
  if (input.knowledgeIds !== undefined) changes.knowledge_ids = JSON.stringify(await checkedKnowledgeIds(ctx, input.knowledgeIds));
  if (input.icon !== undefined) changes.icon = input.icon;
  if (input.iconColor !== undefined) changes.icon_color = input.iconColor;
  if (input.remark !== undefined) changes.remark = input.remark;
  await inTransaction(ctx.db, async (trx) => {
    await repository.updateChatbot(trx, row.id, changes);
    if (changes.name !== undefined) await renameItem(trx, row.id, changes.name);
    if (input.sectionId !== undefined) await moveItem(trx, ctx.actor.appId, row.id, await resolveSection(trx, ctx.actor.appId, input.sectionId, ctx.now(), 'sectionId'));
  });
  return getChatbot(ctx, row.id);
}

/** Deletes every chatbot of an application with their conversations, in the application's deletion (`trx`; its items go with the application's). */
export async function deleteChatbotsOfApp(trx: Executor, appId: string): Promise<void> {
  await repository.deleteChatbotsOfApp(trx, appId);
}

/** Deletes a chatbot with its navigation item and every conversation with it. */
export async function deleteChatbot(ctx: ServiceContext, chatbotId: string): Promise<void> {
  const row = await loadChatbot(ctx, chatbotId);
  await inTransaction(ctx.db, async (trx) => {
    await removeItem(trx, row.id);
    await repository.deleteChatbot(trx, row.id);
  });
}
