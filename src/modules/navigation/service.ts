import type { Executor } from '../../db/connection.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import * as repository from './repository.js';

/** Item types of the navigation: a worksheet, a custom page, a chatbot (2 is the public sub-section). */
export const ItemType = { Worksheet: 0, CustomPage: 1, Chatbot: 3 } as const;

export interface SectionTree {
  id: string;
  name: string;
  items: Array<{ id: string; type: number; name: string }>;
  childSections: SectionTree[];
}

/** The section an item goes to: the given one (which must be the app's), else the first, made if need be. */
export async function resolveSection(db: Executor, appId: string, sectionId: string | undefined, now: number, where: string): Promise<string> {
  if (sectionId) {
    if (!(await repository.findSection(db, appId, sectionId))) throw AppError.notFound(`${where}: no section "${sectionId}" in this application`);
    return sectionId;
  }
  const first = await repository.firstSection(db, appId);
  if (first) return first.id;
  const id = newObjectId();
  await repository.insertSections(db, [{ id, app_id: appId, parent_id: null, name: 'Default', position: 1, created_at: now }]);
  return id;
}

/** Adds an item (whose row lives elsewhere: a worksheet or a page) at the end of its section. */
export async function placeItem(db: Executor, appId: string, item: { id: string; type: number; name: string; sectionId: string }, now: number): Promise<void> {
  const position = (await repository.maxPosition(db, 'items', appId)) + 1;
  await repository.insertItem(db, { id: item.id, app_id: appId, section_id: item.sectionId, type: item.type, name: item.name, position, created_at: now });
}

/** Moves an item to the end of another section. */
export async function moveItem(db: Executor, appId: string, id: string, sectionId: string): Promise<void> {
  const position = (await repository.maxPosition(db, 'items', appId)) + 1;
  await repository.moveItem(db, id, sectionId, position);
}

export async function renameItem(db: Executor, id: string, name: string): Promise<void> {
  await repository.renameItem(db, id, name);
}

/** The section each of these items is in (by item id). */
export async function sectionsOfItems(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  return repository.itemSections(db, ids);
}

/** Takes an item out of the navigation (its own row is removed by its module). */
export async function removeItem(db: Executor, id: string): Promise<void> {
  await repository.removeItem(db, id);
}

/**
 * Creates sections. New top-level sections go to the top of the navigation (as on the public
 * service), keeping the order in which the batch lists them; child sections go to the end of
 * their parent.
 */
export async function createSections(db: Executor, appId: string, sections: Array<{ name: string; parentId?: string }>, now: number) {
  let top = (await repository.minSectionPosition(db, appId)) - sections.filter((s) => !s.parentId).length - 1;
  let bottom = await repository.maxPosition(db, 'sections', appId);
  const created: Array<{ id: string; name: string }> = [];
  const rows = [];
  for (const [index, section] of sections.entries()) {
    const name = section.name.trim();
    if (name === '') throw AppError.invalidParameters(`sections[${index}].name is required`);
    if (name.length > 100) throw AppError.invalidValue(`sections[${index}].name: at most 100 characters`);
    if (section.parentId && !(await repository.findSection(db, appId, section.parentId))) {
      throw AppError.notFound(`sections[${index}].parentId: no section "${section.parentId}" in this application`);
    }
    const id = newObjectId();
    const position = section.parentId ? ++bottom : ++top;
    rows.push({ id, app_id: appId, parent_id: section.parentId || null, name, position, created_at: now });
    created.push({ id, name });
  }
  await repository.insertSections(db, rows);
  return created;
}

/** Which items of the navigation a caller sees. */
export type ShowsItem = (item: { id: string; type: number }) => boolean;

/** A section that shows nothing (no item, no child section left) to a caller who sees only some items. */
const isEmpty = (section: SectionTree): boolean => section.items.length === 0 && section.childSections.length === 0;

function withoutEmpty(sections: SectionTree[]): SectionTree[] {
  return sections.map((s) => ({ ...s, childSections: withoutEmpty(s.childSections) })).filter((s) => !isEmpty(s));
}

/**
 * The navigation as a tree of sections with their items: every item, or with `shows` those the
 * caller sees, sections left empty by it dropped (as the public service hides them from members).
 */
export async function sectionTree(db: Executor, appId: string, shows?: ShowsItem): Promise<SectionTree[]> {
  const [sections, items] = await Promise.all([repository.listSections(db, appId), repository.listItems(db, appId)]);
  const nodes = new Map<string, SectionTree>(sections.map((s) => [s.id, { id: s.id, name: s.name, items: [], childSections: [] }]));
  for (const item of items) {
    if (item.section_id && (!shows || shows(item))) nodes.get(item.section_id)?.items.push({ id: item.id, type: item.type, name: item.name });
  }
  const roots: SectionTree[] = [];
  for (const section of sections) {
    const node = nodes.get(section.id)!;
    const parent = section.parent_id ? nodes.get(section.parent_id) : undefined;
    (parent ? parent.childSections : roots).push(node);
  }
  return shows ? withoutEmpty(roots) : roots;
}
