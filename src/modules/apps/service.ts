import type { Executor } from '../../db/connection.js';
import { inRetriedTransaction, inTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newGuid, newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { ItemType, createSections, placeItem, resolveSection, sectionTree, type ShowsItem } from '../navigation/index.js';
import { administers, hasWorksheetRight, seesChatbot, seesPage } from '../../access/index.js';
import type { Actor } from '../../shared/actor.js';
import { createWorksheet, deleteAllWorksheets } from '../worksheets/index.js';
import { deleteKnowledgeOfApp } from '../knowledge/index.js';
import { deleteChatbotsOfApp } from '../chatbots/index.js';
import * as repository from './repository.js';

export interface AppChanges {
  name?: string;
  description?: string;
  icon?: string;
  color?: string;
}

const COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/**
 * The changes to write, picked by name: nothing else a client sends (`owner_id`, `organization_id`,
 * `created_at`, an unknown key) reaches the UPDATE, however the input object was built.
 */
function checkChanges(input: AppChanges): AppChanges {
  const changes: AppChanges = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') throw AppError.invalidValue('name: cannot be empty');
    if (name.length > 100) throw AppError.invalidValue('name: at most 100 characters');
    changes.name = name;
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.icon !== undefined) changes.icon = input.icon;
  if (input.color !== undefined) {
    if (input.color !== '' && !COLOR.test(input.color)) throw AppError.invalidValue(`color: "${input.color}" is not a hex color such as #2196F3`);
    changes.color = input.color;
  }
  return changes;
}

/** Creates an application owned by an account, with one first section. */
export async function createApp(db: Executor, organizationId: string, ownerId: string, input: AppChanges & { name: string }, now: number): Promise<string> {
  const changes = checkChanges(input);
  const id = newGuid();
  await inTransaction(db, async (trx) => {
    await repository.insertApp(trx, {
      id,
      organization_id: organizationId,
      name: changes.name!,
      description: changes.description ?? '',
      icon: changes.icon ?? '',
      color: changes.color ?? '',
      owner_id: ownerId,
      created_at: now,
      updated_at: now,
    });
    await resolveSection(trx, id, undefined, now, 'sectionId');
  });
  return id;
}

/**
 * The items a caller who does not administer the application sees in its navigation: the custom
 * pages and chatbots their roles show, and the worksheets they may read or add to.
 */
function itemsShownTo(actor: Actor): ShowsItem | undefined {
  if (administers(actor)) return undefined;
  return (item) => {
    if (item.type === ItemType.CustomPage) return seesPage(actor, item.id);
    if (item.type === ItemType.Worksheet) return hasWorksheetRight(actor, item.id, 'read') || hasWorksheetRight(actor, item.id, 'add');
    if (item.type === ItemType.Chatbot) return seesChatbot(actor, item.id);
    return true;
  };
}

export async function getApp(ctx: ServiceContext) {
  const app = await repository.findApp(ctx.db, ctx.actor.appId);
  if (!app) throw AppError.notFound('the application of this key no longer exists');
  return {
    appId: app.id,
    organizationId: app.organization_id,
    name: app.name,
    description: app.description,
    icon: app.icon,
    color: app.color,
    sections: await sectionTree(ctx.db, app.id, itemsShownTo(ctx.actor)),
  };
}

export async function updateApp(ctx: ServiceContext, changes: AppChanges): Promise<void> {
  await repository.updateApp(ctx.db, ctx.actor.appId, { ...checkChanges(changes), updated_at: ctx.now() });
}

/** Deletes the application with every worksheet (and its rows), page, section, key, knowledge base (documents' bytes too) and chatbot (with its conversations). */
export async function deleteApp(ctx: ServiceContext, onDeleted: (appId: string) => void): Promise<void> {
  // Retried when PostgreSQL aborts it to break a deadlock with a background index build.
  const removedFiles = await inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const files = await deleteAllWorksheets(ctx, trx, ctx.actor.appId);
    await deleteKnowledgeOfApp(ctx, trx, ctx.actor.appId);
    await deleteChatbotsOfApp(trx, ctx.actor.appId);
    await repository.deleteApp(trx, ctx.actor.appId);
    return files;
  });
  for (const key of removedFiles) await ctx.files.store.remove(key).catch((error: unknown) => ctx.log.warn({ err: error, key }, 'could not remove a file from the store'));
  onDeleted(ctx.actor.appId);
}

export async function addSections(ctx: ServiceContext, sections: Array<{ name: string; parentId?: string }>) {
  return inTransaction(ctx.db, (trx) => createSections(trx, ctx.actor.appId, sections, ctx.now()));
}

/** Creates empty worksheets (with a title field) and empty custom pages, all or none. */
export async function addItems(ctx: ServiceContext, items: Array<{ sectionId: string; type: number; name: string }>) {
  return inTransaction(ctx.db, async (trx) => {
    const scoped = { ...ctx, db: trx };
    const created = [];
    for (const [i, item] of items.entries()) {
      const name = item.name.trim();
      if (name === '') throw AppError.invalidParameters(`items[${i}].name is required`);
      const sectionId = await resolveSection(trx, ctx.actor.appId, item.sectionId, ctx.now(), `items[${i}].sectionId`);
      if (item.type === ItemType.Worksheet) {
        const { worksheetId } = await createWorksheet(scoped, { name, sectionId, fields: [] });
        created.push({ id: worksheetId, type: item.type, name, sectionId });
      } else {
        const id = newObjectId();
        await repository.insertCustomPage(trx, { id, app_id: ctx.actor.appId, name, components: '[]', version: 0, created_at: ctx.now() });
        await placeItem(trx, ctx.actor.appId, { id, type: ItemType.CustomPage, name, sectionId }, ctx.now());
        created.push({ id, type: item.type, name, sectionId });
      }
    }
    return created;
  });
}


/** The first application of an organization, if any. */
/**
 * The organization an application belongs to, for code that acts within an application without a
 * caller (a share viewer, a workflow run); undefined when the application is gone.
 * @example const organizationId = await organizationOfApp(db, appId)
 */
export async function organizationOfApp(db: Executor, appId: string): Promise<string | undefined> {
  return repository.organizationOf(db, appId);
}

export async function firstAppOf(db: Executor, organizationId: string): Promise<string | undefined> {
  return (await repository.firstAppOf(db, organizationId))?.id;
}

/** An application as lists show it (`GET /v3/apps/list`). */
export interface AppSummary {
  appId: string;
  organizationId: string;
  name: string;
  description: string;
  icon: string;
  color: string;
  ownerId: string;
}

/** The applications of an organization, by name. */
export async function appsOfOrganization(db: Executor, organizationId: string): Promise<AppSummary[]> {
  const rows = await repository.appsOfOrganization(db, organizationId);
  return rows.map((r) => ({ appId: r.id, organizationId: r.organization_id, name: r.name, description: r.description, icon: r.icon, color: r.color, ownerId: r.owner_id }));
}
