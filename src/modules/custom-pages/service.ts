import type sanitizeHtml from 'sanitize-html';
import { seesPage } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import * as repository from './repository.js';

/**
 * Custom pages: an application item whose content is a list of components on a 48-column grid
 * (charts, rich text, embedded URLs, buttons, views, filters, images, carousels, tabs, cards). A save
 * replaces the whole list and must name the version it was made to: a stale version is refused with
 * the current one, so a client reloads instead of overwriting someone else's change.
 */

const COMPONENT_TYPES = new Set([1, 2, 3, 4, 5, 6, 8, 9, 10, 11]);
const GRID_COLUMNS = 48;

interface Layout {
  x: number;
  y: number;
  w: number;
  h: number;
  minW?: number;
  minH?: number;
}

interface ComponentInput {
  type: number;
  value?: unknown;
  worksheetId?: string;
  viewId?: string;
  web: { layout?: Layout | null; [key: string]: unknown };
  mobile?: { layout?: Layout | null; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/** What rich text may hold: formatting, links and images, nothing that runs. */
function richText(sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions {
  return {
    allowedTags: [...sanitize.defaults.allowedTags, 'img', 'span', 'font', 'u', 's'],
    allowedAttributes: { ...sanitize.defaults.allowedAttributes, '*': ['style', 'class'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https', 'mailto'],
  };
}

/** The sanitiser is loaded with the first page saved that holds rich text (a server that saves none need not hold it). */
let sanitizer: Promise<typeof sanitizeHtml> | null = null;

function checkLayout(layout: Layout, where: string): void {
  for (const key of ['x', 'y', 'w', 'h', 'minW', 'minH'] as const) {
    const value = layout[key];
    if (value !== undefined && value < 0) throw AppError.invalidValue(`${where}.${key}: ${value} is negative`);
  }
  if (layout.w === 0 || layout.h === 0) throw AppError.invalidValue(`${where}: a component needs a width and a height (w ${layout.w}, h ${layout.h})`);
  if (layout.x + layout.w > GRID_COLUMNS) throw AppError.invalidValue(`${where}: x + w = ${layout.x + layout.w}, more than the ${GRID_COLUMNS} columns of the grid`);
  if ((layout.minW ?? 0) > layout.w || (layout.minH ?? 0) > layout.h) throw AppError.invalidValue(`${where}: minW/minH larger than w/h`);
}

/** Checks every component (types, grid, references) and sanitises rich text; returns what is stored. */
async function settleComponents(ctx: ServiceContext, components: ComponentInput[]): Promise<ComponentInput[]> {
  const sanitize = components.some((c) => c.type === 2) ? await (sanitizer ??= import('sanitize-html').then((m) => m.default)) : null;
  const charts: Array<[string, string]> = [];
  const worksheets: Array<[string, string]> = [];
  const views: Array<[string, string, string]> = [];
  const settled = components.map((component, i) => {
    const where = `components[${i}]`;
    if (!COMPONENT_TYPES.has(component.type)) throw AppError.invalidValue(`${where}.type: ${component.type} is not a component type (1 chart, 2 rich text, 3 embed URL, 4 buttons, 5 view, 6 filter, 8 image, 9 carousel, 10 tabs, 11 card)`);
    if (!component.web?.layout) throw AppError.invalidParameters(`${where}.web.layout is required`);
    checkLayout(component.web.layout, `${where}.web.layout`);
    if (component.mobile?.layout) checkLayout(component.mobile.layout, `${where}.mobile.layout`);
    if (component.type === 1) {
      if (typeof component.value !== 'string' || component.value === '') throw AppError.invalidParameters(`${where}.value: a chart component names its chart id`);
      charts.push([component.value, `${where}.value`]);
    }
    if (component.worksheetId) worksheets.push([component.worksheetId, `${where}.worksheetId`]);
    if (component.viewId) {
      if (!component.worksheetId) throw AppError.invalidParameters(`${where}.worksheetId: a view is named with its worksheet`);
      views.push([component.worksheetId, component.viewId, `${where}.viewId`]);
    }
    if (component.type === 2 && sanitize) return { ...component, value: sanitize(typeof component.value === 'string' ? component.value : '', richText(sanitize)) };
    return component;
  });
  for (const [table, wanted] of [['charts', charts], ['worksheets', worksheets]] as const) {
    const found = await repository.existingIds(ctx.db, table, ctx.actor.appId, [...new Set(wanted.map(([id]) => id))]);
    const missing = wanted.find(([id]) => !found.has(id));
    if (missing) throw AppError.invalidValue(`${missing[1]}: no ${table === 'charts' ? 'chart' : 'worksheet'} "${missing[0].slice(0, 80)}" in this application`);
  }
  const foundViews = await repository.existingViews(ctx.db, [...new Set(views.map(([worksheetId]) => worksheetId))], [...new Set(views.map(([, viewId]) => viewId))]);
  const missingView = views.find(([worksheetId, viewId]) => !foundViews.has(`${worksheetId}/${viewId}`));
  if (missingView) throw AppError.invalidValue(`${missingView[2]}: no view "${missingView[1].slice(0, 80)}" in worksheet "${missingView[0].slice(0, 80)}"`);
  return settled;
}

/** A page of the application the caller may see: one their roles do not show does not exist for them (10007). */
async function loadPage(ctx: ServiceContext, pageId: string) {
  const page = await repository.findPage(ctx.db, ctx.actor.appId, pageId);
  if (!page || !seesPage(ctx.actor, page.id)) throw AppError.notFound(`custom page "${pageId.slice(0, 80)}" does not exist in this application`);
  return page;
}

export async function getPage(ctx: ServiceContext, pageId: string) {
  const page = await loadPage(ctx, pageId);
  return { id: page.id, name: page.name, version: Number(page.version), components: JSON.parse(page.components) as Array<Record<string, unknown>> };
}

/** Replaces a page's components, if it is still at `version`; returns the new version. */
export async function savePage(ctx: ServiceContext, pageId: string, input: { version: number; components: ComponentInput[] }): Promise<{ version: number }> {
  const page = await loadPage(ctx, pageId);
  const stale = () => AppError.alreadyExists(`version: the page is at version ${page.version}, not ${input.version}; reload it and make the change to version ${page.version}`);
  if (Number(page.version) !== input.version) throw stale();
  const components = await settleComponents(ctx, input.components);
  // The version is compared again in the UPDATE: a save that came in between wins, this one is refused.
  if (!(await repository.savePage(ctx.db, ctx.actor.appId, pageId, input.version, JSON.stringify(components)))) throw stale();
  return { version: input.version + 1 };
}
