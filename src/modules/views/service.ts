import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { inTransaction } from '../../db/transaction.js';
import type { Executor } from '../../db/connection.js';
import { requireReadThroughView } from '../../access/index.js';
import { changeEpoch, noteChange } from '../../shared/change-notices.js';
import type { FilterScope } from '../../query/index.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import { checkView, pruneDefinition, readDefinition, type ViewDefinition, type ViewInput } from './definition.js';
import * as repository from './repository.js';
import { ViewChecker } from './view-checker.js';
import { configFieldIds } from './type-settings.js';
import { VIEW_TYPES, viewTypeName } from './view-types.js';

/** Most views one batch makes. */
export const MAX_VIEWS_PER_BATCH = 50;

function scopeOf(ctx: ServiceContext, schema: WorksheetSchema): FilterScope {
  return { schema, dialect: ctx.dialect, now: ctx.now(), timeZone: ctx.timeZone, selfAccountId: ctx.actor.accountId };
}

/** A view as the API shows it: its settings, field references as ids. */
function present(row: repository.ViewRow, schema: WorksheetSchema) {
  const definition = pruneDefinition(readDefinition(row.definition), schema);
  return {
    id: row.id,
    worksheetId: row.worksheet_id,
    name: row.name,
    viewType: viewTypeName(row.type),
    type: row.type,
    position: row.position,
    ...definition,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

function labelOf(name: unknown, fallback: string): string {
  return typeof name === 'string' && name.trim() !== '' ? `view "${name.trim().slice(0, 100)}"` : fallback;
}

/**
 * Creates views of a worksheet, all or none: every view is checked first (an error names the view
 * and the key), then all are stored in one transaction, after the worksheet's other views.
 * @example createViews(ctx, 'deals', [{ name: 'Pipeline', viewType: 'kanban', config: { groupField: 'stage' } }])
 */
export async function createViews(ctx: ServiceContext, worksheetKey: string, inputs: ViewInput[]) {
  if (inputs.length === 0) throw AppError.invalidParameters('views must hold at least one view');
  if (inputs.length > MAX_VIEWS_PER_BATCH) throw AppError.invalidParameters(`views: at most ${MAX_VIEWS_PER_BATCH} per call, got ${inputs.length}`);
  const schema = await loadSchema(ctx, worksheetKey);
  const scope = scopeOf(ctx, schema);
  const checked = inputs.map((input, i) => checkView(input, scope, new ViewChecker(schema, labelOf(input.name, `views[${i}]`), `views[${i}].`)));
  const now = ctx.now();
  const rows = await inTransaction(ctx.db, async (trx) => {
    const last = await repository.lastPosition(trx, schema.id);
    const made = checked.map((view, i) => ({
      id: newObjectId(),
      worksheet_id: schema.id,
      name: view.name,
      type: view.type,
      position: last + i + 1,
      definition: JSON.stringify(view.definition),
      created_at: now,
      updated_at: now,
    }));
    await repository.insertViews(trx, made);
    return made;
  });
  return { views: rows.map((row) => present(row, schema)) };
}

async function findView(ctx: ServiceContext, schema: WorksheetSchema, viewId: string): Promise<repository.ViewRow> {
  const row = await repository.findView(ctx.db, schema.id, viewId);
  if (!row) throw AppError.notFound(`view "${viewId.slice(0, 80)}" does not exist in this worksheet`);
  return row;
}

export async function getView(ctx: ServiceContext, worksheetKey: string, viewId: string) {
  const schema = await loadSchema(ctx, worksheetKey);
  return present(await findView(ctx, schema, viewId), schema);
}

/**
 * Changes a view: the keys sent replace the stored ones (`config`, `card` and the lists whole);
 * the result is checked in full as a new view would be (so a kanban keeps its group field).
 */
export async function updateView(ctx: ServiceContext, worksheetKey: string, viewId: string, patch: ViewInput) {
  const schema = await loadSchema(ctx, worksheetKey);
  const row = await findView(ctx, schema, viewId);
  const stored = pruneDefinition(readDefinition(row.definition), schema);
  const merged: ViewInput = { name: row.name, viewType: row.type, ...storedAsInput(stored), ...definedKeys(patch) };
  const view = checkView(merged, scopeOf(ctx, schema), new ViewChecker(schema, labelOf(merged.name, 'view'), ''));
  const now = ctx.now();
  await repository.updateView(ctx.db, row.id, { name: view.name, type: view.type, definition: JSON.stringify(view.definition), updated_at: now });
  ctx.schemas.delete(cacheKey(schema.id, row.id));
  // Roles may give rights through this view: the standings holding its filter are read again.
  noteChange();
  return present({ ...row, name: view.name, type: view.type, definition: JSON.stringify(view.definition), updated_at: now }, schema);
}

function storedAsInput(definition: ViewDefinition): ViewInput {
  return { ...definition, color: definition.color ?? undefined, card: definition.card ? { ...definition.card } : undefined };
}

function definedKeys(patch: ViewInput): ViewInput {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as ViewInput;
}

export async function deleteView(ctx: ServiceContext, worksheetKey: string, viewId: string): Promise<void> {
  const schema = await loadSchema(ctx, worksheetKey);
  const row = await findView(ctx, schema, viewId);
  await repository.deleteView(ctx.db, row.id);
  ctx.schemas.delete(cacheKey(schema.id, row.id));
  noteChange();
}

/** What a read asked through a view takes from it (`viewId` on rows/list and rows/pivot). */
export interface ViewForRead {
  type: number;
  definition: ViewDefinition;
}

/**
 * The view a read names, as the worksheet is now (fields removed since forgotten); 10007 when the
 * worksheet has no such view, 10005 when the caller's read right comes through other views only.
 */
export async function viewForRead(ctx: ServiceContext, schema: WorksheetSchema, viewId: string): Promise<ViewForRead> {
  // Kept with the schemas (and as long): a list through a view costs no extra statement.
  const key = cacheKey(schema.id, viewId);
  let row = ctx.schemas.get(key) as repository.ViewRow | undefined;
  if (!row) {
    const readSince = changeEpoch();
    row = await repository.findView(ctx.db, schema.id, viewId);
    if (!row) throw AppError.notFound(`viewId: no view "${viewId.slice(0, 80)}" in this worksheet`);
    if (!ctx.db.isTransaction) ctx.schemas.set(key, row, readSince);
  }
  requireReadThroughView(ctx.actor, schema, { id: row.id, name: row.name });
  return { type: row.type, definition: pruneDefinition(readDefinition(row.definition), schema) };
}

/**
 * The stored filters of views, by id (those that exist): what roles and custom keys that give
 * rights through views compile into a caller's reach, read with their standing, not per request.
 * @example await viewFilters(db, ['64f…']) // Map { '64f…' => { type: 'group', … } }
 */
export async function viewFilters(db: Executor, viewIds: readonly string[]): Promise<Map<string, unknown>> {
  if (viewIds.length === 0) return new Map();
  const rows = await repository.viewDefinitions(db, [...new Set(viewIds)]);
  return new Map(rows.map((row) => [row.id, readDefinition(row.definition).filter]));
}

/** Where a view read through `viewId` is cached; dropped when the view changes or goes. */
function cacheKey(worksheetId: string, viewId: string): string {
  return `view/${worksheetId}/${viewId}`;
}

/**
 * The fields a read through a view shows when the request names none: the view's table fields, or
 * with `tableView: false` on a view that is not a table, the fields its own format shows (the
 * card's, then those its settings name: group, dates, location…). Empty: every field.
 */
export function visibleFieldIds(view: ViewForRead, tableView: boolean | undefined): string[] {
  const { definition } = view;
  if (tableView !== false || view.type === VIEW_TYPES.table) return definition.tableFields;
  const card = definition.card;
  const own = [card?.titleField, card?.summaryField, ...(card?.displayFields ?? []), card?.coverField, ...configFieldIds(definition.config), definition.color];
  const ids = [...new Set(own.filter((id): id is string => typeof id === 'string'))];
  return ids.length > 0 ? ids : definition.tableFields;
}
