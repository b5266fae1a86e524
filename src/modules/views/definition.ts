import { compileFilter, fieldExists, filterOfFieldsNow, mapFilterFields, sortableSystemColumn, type FilterScope } from '../../query/index.js';
import type { WorksheetSchema } from '../worksheets/index.js';
import { checkConfig } from './type-settings.js';
import type { ViewChecker } from './view-checker.js';
import { COLOR_FIELD, viewTypeName, viewTypeOf } from './view-types.js';

/** A view as a client sends it (create, or the keys a PATCH changes). */
export interface ViewInput {
  name?: string;
  viewType?: string | number;
  config?: Record<string, unknown>;
  filter?: unknown;
  sort?: unknown[];
  tableFields?: string[];
  quickFilters?: string[];
  filterList?: string[];
  group?: unknown;
  card?: Record<string, unknown>;
  color?: string | null;
  rowHeight?: number;
  detailActions?: string[];
  quickActions?: unknown[];
}

/** A card's layout (kanban, gallery…): field references as ids. */
export interface CardSettings {
  titleField: string | null;
  summaryField: string | null;
  displayFields: string[];
  coverField: string | null;
  coverDirection?: string;
  coverDisplayMode?: string;
}

/**
 * The stored settings of a view (`views.definition`), every field reference a field id.
 * `filter` is the filter language of lists with ids for fields; `sort` the `sorts` of lists.
 */
export interface ViewDefinition {
  config: Record<string, unknown>;
  filter: unknown;
  sort: Array<{ field: string; isAsc: boolean }>;
  tableFields: string[];
  quickFilters: string[];
  filterList: string[];
  group: string[];
  card: CardSettings | null;
  color: string | null;
  rowHeight: number;
  detailActions: string[];
  quickActions: unknown[];
}

export const EMPTY_DEFINITION: ViewDefinition = {
  config: {},
  filter: null,
  sort: [],
  tableFields: [],
  quickFilters: [],
  filterList: [],
  group: [],
  card: null,
  color: null,
  rowHeight: 0,
  detailActions: [],
  quickActions: [],
};

/** A stored definition with every key (older or default views store fewer). */
export function readDefinition(json: string): ViewDefinition {
  return { ...EMPTY_DEFINITION, ...(JSON.parse(json) as Partial<ViewDefinition>) };
}

const MAX_NAME = 100;
const COVER_DIRECTIONS = new Set(['top', 'left', 'right']);
const COVER_MODES = new Set(['full', 'square', 'circle', 'rectangle']);
const QUICK_ACTION_TYPES = new Set(['print', 'delete', 'share', 'action']);

export function checkName(name: unknown, check: ViewChecker): string {
  if (typeof name !== 'string' || name.trim() === '') check.missing('name', 'every view has a name');
  if (name.trim().length > MAX_NAME) check.fail('name', `at most ${MAX_NAME} characters`);
  return name.trim();
}

export function checkType(viewType: unknown, check: ViewChecker): number {
  if (viewType === undefined || viewType === null || viewType === '') return 0;
  const type = viewTypeOf(viewType);
  if (type === null) check.fail('viewType', `unknown view type ${JSON.stringify(viewType).slice(0, 40)}; use table, kanban, gallery, calendar, gantt, hierarchy, resource, map, detail, plugin or their numbers 0–8, 21`);
  return type;
}

function checkFilter(filter: unknown, scope: FilterScope, check: ViewChecker): unknown {
  if (filter === undefined || filter === null) return null;
  // Compiled as a list compiles it, so that a filter a list would refuse is refused now.
  check.named(() => compileFilter(scope, filter, check.key('filter')));
  return mapFilterFields(filter, (field) => scope.schema.byKey.get(field)?.id ?? field);
}

function checkSort(sort: unknown, check: ViewChecker): ViewDefinition['sort'] {
  if (sort === undefined || sort === null) return [];
  if (!Array.isArray(sort)) check.fail('sort', 'expected an array of {field, isAsc} (or {fieldId, sortType})');
  const terms: ViewDefinition['sort'] = [];
  sort.forEach((term: unknown, i) => {
    const key = `sort[${i}]`;
    if (typeof term !== 'object' || term === null) check.fail(key, 'expected {field, isAsc}');
    const { field, fieldId, controlId, isAsc, sortType } = term as Record<string, unknown>;
    const ref = field ?? fieldId ?? controlId;
    if (ref === '') return;
    const ascending = isAsc !== undefined ? isAsc !== false && isAsc !== 'false' : Number(sortType ?? 1) !== 2;
    if (typeof ref === 'string' && sortableSystemColumn(ref)) {
      terms.push({ field: ref as string, isAsc: ascending });
      return;
    }
    const meta = check.fieldMeta(`${key}.field`, ref);
    if (!meta.fieldType.indexable) check.fail(`${key}.field`, `cannot sort by "${meta.name}", a ${meta.fieldType.name} field`);
    terms.push({ field: meta.id, isAsc: ascending });
  });
  return terms;
}

function checkGroup(group: unknown, type: number, check: ViewChecker): string[] {
  if (group === undefined || group === null || group === '' || (Array.isArray(group) && group.length === 0)) return [];
  if (type !== 0 && type !== 3) check.fail('group', 'only table and gallery views group their records');
  const entries = Array.isArray(group) ? group : [group];
  return check.fields(
    'group',
    entries.map((entry: unknown) => (typeof entry === 'object' && entry !== null ? ((entry as Record<string, unknown>).field ?? (entry as Record<string, unknown>).fieldId) : entry)),
  );
}

function checkCard(card: unknown, check: ViewChecker): CardSettings | null {
  if (card === undefined || card === null) return null;
  if (typeof card !== 'object' || Array.isArray(card)) check.fail('card', 'expected {titleField, summaryField, displayFields, coverField, …}');
  const given = card as Record<string, unknown>;
  const settings: CardSettings = {
    titleField: check.optionalField('card.titleField', given.titleField),
    summaryField: check.optionalField('card.summaryField', given.summaryField),
    displayFields: check.fields('card.displayFields', given.displayFields, 4),
    coverField: check.optionalField('card.coverField', given.coverField),
  };
  if (given.coverDirection !== undefined) {
    if (!COVER_DIRECTIONS.has(String(given.coverDirection))) check.fail('card.coverDirection', 'must be top, left or right');
    settings.coverDirection = String(given.coverDirection);
  }
  if (given.coverDisplayMode !== undefined) {
    if (!COVER_MODES.has(String(given.coverDisplayMode))) check.fail('card.coverDisplayMode', 'must be full, square, circle or rectangle');
    settings.coverDisplayMode = String(given.coverDisplayMode);
  }
  return settings;
}

function checkRowHeight(rowHeight: unknown, check: ViewChecker): number {
  if (rowHeight === undefined || rowHeight === null) return 0;
  const height = Number(rowHeight);
  if (!Number.isInteger(height) || height < 0 || height > 3) check.fail('rowHeight', 'must be 0, 1, 2 or 3');
  return height;
}

function checkQuickActions(actions: unknown, check: ViewChecker): unknown[] {
  if (actions === undefined || actions === null) return [];
  if (!Array.isArray(actions)) check.fail('quickActions', 'expected an array of {type, id?}');
  actions.forEach((action: unknown, i) => {
    const type = typeof action === 'object' && action !== null ? (action as Record<string, unknown>).type : undefined;
    if (!QUICK_ACTION_TYPES.has(String(type))) check.fail(`quickActions[${i}].type`, 'must be print, delete, share or action');
  });
  return actions;
}

function strings(value: unknown, key: string, check: ViewChecker): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) check.fail(key, 'expected an array of strings');
  return value as string[];
}

/**
 * A view of a request, checked in full: name, type, the type's settings and every field reference.
 * The first problem is an error naming the view and the key; nothing is stored before all are checked.
 */
export function checkView(input: ViewInput, scope: FilterScope, check: ViewChecker): { name: string; type: number; definition: ViewDefinition } {
  const name = checkName(input.name, check);
  const type = checkType(input.viewType, check);
  const definition: ViewDefinition = {
    config: checkConfig(viewTypeName(type), input.config, check),
    filter: checkFilter(input.filter, scope, check),
    sort: checkSort(input.sort, check),
    tableFields: check.fields('tableFields', input.tableFields),
    quickFilters: check.fields('quickFilters', input.quickFilters),
    filterList: check.fields('filterList', input.filterList, 1),
    group: checkGroup(input.group, type, check),
    card: checkCard(input.card, check),
    color: check.optionalField('color', input.color, COLOR_FIELD),
    rowHeight: checkRowHeight(input.rowHeight, check),
    detailActions: strings(input.detailActions, 'detailActions', check),
    quickActions: checkQuickActions(input.quickActions, check),
  };
  return { name, type, definition };
}

/**
 * A stored definition as the worksheet is now: references to fields removed since are forgotten
 * (their filter conditions, sort terms and entries of field lists no longer apply), as Airtable and
 * NocoDB forget a deleted field in their views.
 */
export function pruneDefinition(definition: ViewDefinition, schema: WorksheetSchema): ViewDefinition {
  const exists = (id: string | null) => fieldExists(schema, id);
  const keep = (ids: string[]) => ids.filter(exists);
  const orNull = (id: string | null) => (exists(id) ? id : null);
  const card = definition.card;
  return {
    ...definition,
    filter: filterOfFieldsNow(definition.filter, schema),
    sort: definition.sort.filter((term) => exists(term.field)),
    tableFields: keep(definition.tableFields),
    quickFilters: keep(definition.quickFilters),
    filterList: keep(definition.filterList),
    group: keep(definition.group),
    card: card && { ...card, titleField: orNull(card.titleField), summaryField: orNull(card.summaryField), displayFields: keep(card.displayFields), coverField: orNull(card.coverField) },
    color: orNull(definition.color),
  };
}
