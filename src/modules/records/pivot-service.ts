import type { DateGranularity, StoredDate } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta, ReferenceKind, ResolvedReferences } from '../../fields/field-type.js';
import { resolveReferences } from './references.js';
import { emptyReferenceSet } from './value-codec.js';
import { coversPivot, pivotIndexFor, systemColumn, type IndexableColumns } from '../../query/index.js';
import { viewForRead } from '../views/index.js';
import { planViewFilter, type viewFilter } from './view-filter.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema, readIndexColumnsOf, requestReadIndex, type WorksheetSchema } from '../worksheets/index.js';
import * as repository from './pivot-repository.js';
import { callerScope, scopedIndexable } from './filter-scope.js';
import { requireWorksheetRight, rowsFor } from '../../access/index.js';

export interface PivotDimensionInput {
  field: string;
  displayName?: string;
  granularity?: number;
  includeEmpty?: boolean;
}

export interface PivotValueInput {
  field: string;
  displayName?: string;
  aggregation?: string;
}

export interface PivotInput {
  rows?: PivotDimensionInput[];
  columns?: PivotDimensionInput[];
  values?: PivotValueInput[];
  filter?: unknown;
  /** A view of the worksheet: its filter is ANDed with `filter` (its sort and fields do not apply to groups). */
  viewId?: string;
  sorts?: Array<{ field: string; isAsc?: boolean }>;
  pageSize?: number;
  pageIndex?: number;
  includeSummary?: boolean;
}

/** The value that counts records rather than a field's values. */
export const RECORD_COUNT = 'record_count';

const GRANULARITIES: Record<number, DateGranularity> = { 1: 'day', 2: 'week', 3: 'month', 4: 'quarter', 5: 'year' };
const AGGREGATIONS: ReadonlySet<string> = new Set<repository.Aggregation>(['COUNT', 'DISTINCTCOUNT', 'SUM', 'MIN', 'MAX', 'AVG']);
const NUMERIC_AGGREGATIONS: ReadonlySet<string> = new Set(['SUM', 'MIN', 'MAX', 'AVG']);
/** How each value kind's dates are stored, for the kinds that group by a period. */
const STORED_DATES: Partial<Record<FieldMeta['fieldType']['valueKind'], StoredDate>> = { date: 'day-text', datetime: 'epoch-ms' };
/** Value kinds that group by their stored value: a scalar, or each element of a JSON array (multiple choices, members, departments). */
const GROUPABLE_KINDS: ReadonlySet<string> = new Set(['text', 'number', 'choices', 'reference', 'date', 'datetime', 'time']);

/** A dimension of the request, resolved: a field or a system field. */
interface ResolvedDimension {
  request: string;
  /** How cells name the dimension: the field id, or the system field's name. */
  key: string;
  displayName: string;
  granularity: number | undefined;
  /** Groups of members, departments or regions show their names, resolved once per page. */
  references: ReferenceKind | null;
  /** A group's stored value as the client reads it (option text, name, bucket, number or text). */
  present: (raw: unknown, refs: ResolvedReferences) => unknown;
  sql: repository.PivotDimension;
}

interface ResolvedValue {
  request: string;
  key: string;
  displayName: string;
  aggregation: repository.Aggregation;
  sql: repository.PivotMeasure;
}

function granularityOf(input: PivotDimensionInput, storedAs: StoredDate | undefined, name: string, typeName: string, path: string): number | undefined {
  if (input.granularity !== undefined && !storedAs) throw AppError.invalidValue(`${path}.granularity: only Date and DateTime fields take a granularity; "${name}" is a ${typeName} field`);
  return storedAs ? (input.granularity ?? 1) : undefined;
}

/** How a group of members, departments or regions is named: the member's or department's name, the region's path (several counties share a name). */
function nameOf(kind: ReferenceKind, id: string, refs: ResolvedReferences): string {
  if (kind === 'account') return refs.accounts.get(id)?.fullname ?? id;
  if (kind === 'region') return refs.regions.get(id)?.path ?? id;
  return refs.departments.get(id)?.name ?? id;
}

/** System fields group by the period of an instant, or by member; the record id and number do not group. */
function resolveSystemDimension(input: PivotDimensionInput, path: string): ResolvedDimension | null {
  const system = systemColumn(input.field);
  if (!system) return null;
  if (system.holds !== 'instant' && system.holds !== 'member') throw AppError.invalidValue(`${path}.field: cannot group by the ${system.name}`);
  const storedAs: StoredDate | undefined = system.holds === 'instant' ? 'epoch-ms' : undefined;
  const granularity = granularityOf(input, storedAs, system.wireName, system.holds === 'instant' ? 'DateTime' : 'Collaborator', path);
  return {
    request: input.field,
    key: system.wireName,
    displayName: input.displayName ?? system.wireName,
    granularity,
    references: system.holds === 'member' ? 'account' : null,
    present: (raw, refs) => (system.holds === 'member' ? nameOf('account', String(raw), refs) : String(raw)),
    sql: {
      column: system.column,
      elements: false,
      bucket: storedAs ? { granularity: GRANULARITIES[granularity!], storedAs } : null,
      includeEmpty: input.includeEmpty !== false,
      optionOrder: null,
    },
  };
}

function resolveDimension(ctx: ServiceContext, schema: WorksheetSchema, input: PivotDimensionInput, path: string): ResolvedDimension {
  const system = resolveSystemDimension(input, path);
  if (system) return system;
  const field = schema.byKey.get(input.field);
  if (!field) throw AppError.invalidValue(`${path}.field: no field "${input.field.slice(0, 80)}" in this worksheet`);
  const type = field.fieldType;
  if (!GROUPABLE_KINDS.has(type.valueKind) || type.column === null) {
    throw AppError.invalidValue(`${path}.field: cannot group by "${field.name}", a ${type.name} field`);
  }
  const storedAs = STORED_DATES[type.valueKind];
  const granularity = granularityOf(input, storedAs, field.name, type.name, path);
  const elements = type.column === 'json';
  const references = type.referenceKind ?? null;
  const optionText = (key: unknown) => field.options.find((o) => o.key === key)?.value ?? key;
  const present = (raw: unknown, refs: ResolvedReferences): unknown => {
    if (storedAs) return String(raw);
    if (references) return nameOf(references, String(raw), refs);
    if (type.valueKind === 'choices') return optionText(raw);
    return ctx.dialect.decode(type.column!, raw);
  };
  return {
    request: input.field,
    key: field.id,
    displayName: input.displayName ?? field.name,
    granularity,
    references,
    present,
    sql: {
      column: field.id,
      elements,
      bucket: storedAs ? { granularity: GRANULARITIES[granularity!], storedAs } : null,
      includeEmpty: input.includeEmpty !== false,
      // Choices (each element of a multiple choice too) sort in option order; members and departments by id.
      optionOrder: type.valueKind !== 'choices' ? null : elements ? field.options.map((option) => option.key) : (type.sortOrder?.(field).optionOrder ?? null),
    },
  };
}

function resolveValue(schema: WorksheetSchema, input: PivotValueInput, path: string): ResolvedValue {
  const aggregation = (input.aggregation ?? 'COUNT').toUpperCase();
  if (!AGGREGATIONS.has(aggregation)) {
    throw AppError.invalidValue(`${path}.aggregation: unknown aggregation ${JSON.stringify(input.aggregation!.slice(0, 30))}; use COUNT, DISTINCTCOUNT, SUM, MIN, MAX or AVG`);
  }
  const typed = aggregation as repository.Aggregation;
  if (input.field === RECORD_COUNT) {
    if (typed !== 'COUNT') throw AppError.invalidValue(`${path}.aggregation: record_count is a COUNT, not ${aggregation}`);
    return { request: input.field, key: RECORD_COUNT, displayName: input.displayName ?? 'Record count', aggregation: typed, sql: { column: null, aggregation: typed } };
  }
  const field = schema.byKey.get(input.field);
  if (!field) throw AppError.invalidValue(`${path}.field: no field "${input.field.slice(0, 80)}" in this worksheet`);
  if (field.fieldType.column === null) throw AppError.invalidValue(`${path}.field: "${field.name}" is a ${field.fieldType.name} field, which holds no value`);
  if (input.aggregation === undefined) throw AppError.invalidParameters(`${path}.aggregation is required for a field`);
  if (NUMERIC_AGGREGATIONS.has(typed) && field.fieldType.valueKind !== 'number') {
    throw AppError.invalidValue(`${path} "${field.name}": ${typed} needs a number field, not ${field.fieldType.name}; use COUNT or DISTINCTCOUNT`);
  }
  return { request: input.field, key: field.id, displayName: input.displayName ?? field.name, aggregation: typed, sql: { column: field.id, aggregation: typed } };
}

/** Refuses a field named twice: cells are keyed by field id, so a second entry would overwrite the first. */
function checkUnique(keys: Array<[key: string, path: string]>): void {
  const seen = new Map<string, string>();
  for (const [key, path] of keys) {
    const earlier = seen.get(key);
    if (earlier) throw AppError.invalidValue(`${path}.field: the field is already used by ${earlier}`);
    seen.set(key, path);
  }
}

/** The ORDER BY of the groups: the requested sorts, then every dimension not sorted yet, ascending. */
function orderOf(input: PivotInput, dimensions: ResolvedDimension[], values: ResolvedValue[]): repository.PivotOrder[] {
  const order: repository.PivotOrder[] = [];
  for (const [i, sort] of (input.sorts ?? []).entries()) {
    const ascending = sort.isAsc !== false;
    const dimension = dimensions.findIndex((d) => d.request === sort.field || d.key === sort.field);
    const value = dimension >= 0 ? -1 : values.findIndex((v) => v.request === sort.field || v.key === sort.field || v.displayName === sort.field);
    if (dimension >= 0) order.push({ target: 'dimension', index: dimension, ascending });
    else if (value >= 0) order.push({ target: 'measure', index: value, ascending });
    else throw AppError.invalidValue(`sorts[${i}].field: "${sort.field.slice(0, 80)}" is neither a dimension nor a value of this pivot`);
  }
  dimensions.forEach((_, index) => {
    if (!order.some((o) => o.target === 'dimension' && o.index === index)) order.push({ target: 'dimension', index, ascending: true });
  });
  return order;
}

/** Names of the members, departments and regions the page's groups show, in one query per kind. */
async function groupReferences(ctx: ServiceContext, dimensions: ResolvedDimension[], groups: Array<Record<string, unknown>>): Promise<ResolvedReferences> {
  const refs = emptyReferenceSet();
  dimensions.forEach((dimension, i) => {
    if (!dimension.references) return;
    for (const group of groups) if (group[`d${i}`] !== null && group[`d${i}`] !== undefined) refs[dimension.references].add(String(group[`d${i}`]));
  });
  return resolveReferences(ctx.db, refs);
}

function presentMeasure(value: ResolvedValue, raw: unknown): unknown {
  if (raw === null || raw === undefined) return value.aggregation === 'COUNT' || value.aggregation === 'DISTINCTCOUNT' ? 0 : null;
  return Number(raw);
}

function measuresOf(values: ResolvedValue[], row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(values.map((v, i) => [v.key, presentMeasure(v, row[`v${i}`])]));
}

/** Refuses dimensions and values on fields the caller may not see (430014 naming the key). */
function refuseHidden(hidden: ReadonlySet<string> | undefined, schema: WorksheetSchema, named: ReadonlyArray<readonly [string | undefined, string]>): void {
  if (!hidden) return;
  for (const [key, path] of named) {
    const field = key === undefined ? undefined : schema.byKey.get(key);
    if (field && hidden.has(field.id)) throw new AppError(ErrorCode.FieldPermissionDenied, 403, `${path}.field: you may not see the field "${field.name}"`);
  }
}

/** What a pivot's input names in its messages: its own keys, or (charts) the keys their request used. */
export interface PivotPaths {
  rows: string;
  columns: string;
  values: string;
}

/**
 * A pivot's dimensions, values and filter resolved and checked (errors name the key, under `paths`),
 * without reading any record: what a pivot runs, and what a chart is checked by when it is saved.
 */
export function planPivot(ctx: ServiceContext, schema: WorksheetSchema, input: PivotInput, paths: PivotPaths = { rows: 'rows', columns: 'columns', values: 'values' }, view: Parameters<typeof viewFilter>[1] = null) {
  if (!input.values || input.values.length === 0) throw AppError.invalidParameters(`${paths.values}: at least one value is required, e.g. {"field": "record_count"}`);
  const scope = callerScope(ctx, schema);
  refuseHidden(scope.hiddenFields, schema, [...(input.rows ?? []).map((d, i) => [d.field, `${paths.rows}[${i}]`] as const), ...(input.columns ?? []).map((d, i) => [d.field, `${paths.columns}[${i}]`] as const), ...input.values.map((v, i) => [v.field, `${paths.values}[${i}]`] as const)]);
  const rowDims = (input.rows ?? []).map((d, i) => resolveDimension(ctx, schema, d, `${paths.rows}[${i}]`));
  const columnDims = (input.columns ?? []).map((d, i) => resolveDimension(ctx, schema, d, `${paths.columns}[${i}]`));
  const values = input.values.map((v, i) => resolveValue(schema, v, `${paths.values}[${i}]`));
  checkUnique([...rowDims.map((d, i): [string, string] => [d.key, `${paths.rows}[${i}]`]), ...columnDims.map((d, i): [string, string] => [d.key, `${paths.columns}[${i}]`])]);
  checkUnique(values.map((v, i) => [v.key, `${paths.values}[${i}]`]));
  const dimensions = [...rowDims, ...columnDims];
  const { predicate, indexable } = planViewFilter(scope, view, input.filter);
  return { rowDims, columnDims, values, dimensions, predicate, indexable };
}

/**
 * Asks for the index the pivot could be read from alone (`pivotIndexFor`), unless one the worksheet
 * has already serves it. The caller's data scope counts among the filter's columns
 * (`scopedIndexable`). Built in the background, never here.
 */
function requestPivotIndex(ctx: ServiceContext, schema: WorksheetSchema, indexable: IndexableColumns, dimensions: ResolvedDimension[], values: ResolvedValue[]): void {
  const aggregated = values.map((v) => v.sql.column).filter((column): column is string => column !== null);
  const planned = pivotIndexFor(scopedIndexable(ctx, schema, indexable), dimensions.map((d) => d.sql.column), aggregated);
  if (planned.key.length === 0 || [...schema.readIndexes].some((key) => coversPivot(readIndexColumnsOf(key), planned))) return;
  requestReadIndex(ctx, schema, planned);
}

/**
 * A pivot of a worksheet's records, grouped and aggregated by the database:
 * `{meta, pivot:[{rows, columns, values}], summary?, totalPages, currentPage}`, cells keyed by
 * field id (or `record_count`).
 * @example pivotRecords(ctx, 'orders', { rows: [{ field: 'status' }], values: [{ field: 'amount', aggregation: 'sum' }] })
 */
export async function pivotRecords(ctx: ServiceContext, worksheetKey: string, input: PivotInput) {
  const schema = await loadSchema(ctx, worksheetKey);
  const view = input.viewId ? await viewForRead(ctx, schema, input.viewId) : null;
  requireWorksheetRight(ctx.actor, schema, 'read');
  const { rowDims, columnDims, values, dimensions, predicate, indexable } = planPivot(ctx, schema, input, undefined, view);
  requestPivotIndex(ctx, schema, indexable, dimensions, values);
  const query: repository.PivotQuery = {
    table: schema.table,
    predicate: rowsFor(ctx.actor, callerScope(ctx, schema), 'read', predicate),
    dimensions: dimensions.map((d) => d.sql),
    measures: values.map((v) => v.sql),
    dialect: ctx.dialect,
    timeZone: ctx.timeZone,
  };
  const pageSize = input.pageSize ?? 100;
  const pageIndex = input.pageIndex ?? 1;
  const offset = (pageIndex - 1) * pageSize;
  const [groups, summary] = await Promise.all([repository.pivotPage(ctx.db, query, orderOf(input, dimensions, values), pageSize, offset), input.includeSummary ? repository.summarize(ctx.db, query) : undefined]);
  // A page that is not full is the last one: the groups are counted without grouping every record a second time
  // (a chart's single page, most pivots). Only a full page, or one past the end, needs the count.
  const lastPage = groups.length < pageSize && (groups.length > 0 || offset === 0);
  const groupCount = lastPage ? offset + groups.length : await repository.countGroups(ctx.db, query);
  const refs = await groupReferences(ctx, dimensions, groups);
  const cell = (d: ResolvedDimension, raw: unknown) => (raw === null || raw === undefined ? null : d.present(raw, refs));
  const cellsOf = (dims: ResolvedDimension[], offset: number, row: Record<string, unknown>) => Object.fromEntries(dims.map((d, i) => [d.key, cell(d, row[`d${offset + i}`])]));
  const metaOf = (d: ResolvedDimension) => ({ field: d.key, displayName: d.displayName, ...(d.granularity ? { granularity: d.granularity } : {}), includeEmpty: d.sql.includeEmpty });
  return {
    meta: {
      rows: rowDims.map(metaOf),
      columns: columnDims.map(metaOf),
      values: values.map((v) => ({ field: v.key, displayName: v.displayName, aggregation: v.aggregation })),
    },
    pivot: groups.map((row) => ({ rows: cellsOf(rowDims, 0, row), columns: cellsOf(columnDims, rowDims.length, row), values: measuresOf(values, row) })),
    ...(summary ? { summary: measuresOf(values, summary) } : {}),
    totalPages: Math.ceil(groupCount / pageSize),
    currentPage: pageIndex,
  };
}
