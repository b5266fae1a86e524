import type { DateGranularity, StoredDate } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { compileFilter } from '../../query/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import * as repository from './pivot-repository.js';

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
/** Value kinds that group by their stored scalar (multiple choices and members are JSON arrays: not yet). */
const GROUPABLE_KINDS: ReadonlySet<string> = new Set(['text', 'number', 'choices', 'date', 'datetime', 'time']);

interface ResolvedDimension {
  request: string;
  field: FieldMeta;
  displayName: string;
  granularity: number | undefined;
  sql: repository.PivotDimension;
}

interface ResolvedValue {
  request: string;
  key: string;
  displayName: string;
  aggregation: repository.Aggregation;
  sql: repository.PivotMeasure;
}

function resolveDimension(schema: WorksheetSchema, input: PivotDimensionInput, path: string): ResolvedDimension {
  const field = schema.byKey.get(input.field);
  if (!field) throw AppError.invalidValue(`${path}.field: no field "${input.field.slice(0, 80)}" in this worksheet`);
  const type = field.fieldType;
  if (!GROUPABLE_KINDS.has(type.valueKind) || type.column === 'json' || type.column === null) {
    throw AppError.invalidValue(`${path}.field: cannot group by "${field.name}", a ${type.name} field (grouping by multiple choices, members and departments is not supported yet)`);
  }
  const storedAs = STORED_DATES[type.valueKind];
  if (input.granularity !== undefined && !storedAs) throw AppError.invalidValue(`${path}.granularity: only Date and DateTime fields take a granularity; "${field.name}" is a ${type.name} field`);
  const granularity = storedAs ? (input.granularity ?? 1) : undefined;
  return {
    request: input.field,
    field,
    displayName: input.displayName ?? field.name,
    granularity,
    sql: {
      column: field.id,
      bucket: storedAs ? { granularity: GRANULARITIES[granularity!], storedAs } : null,
      includeEmpty: input.includeEmpty !== false,
      optionOrder: type.sortOrder?.(field).optionOrder ?? null,
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
    const dimension = dimensions.findIndex((d) => d.request === sort.field || d.field.id === sort.field);
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

/** A group's stored dimension value as the client reads it: option text, date bucket, number or text. */
function presentDimension(ctx: ServiceContext, dimension: ResolvedDimension, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (dimension.sql.bucket) return String(raw);
  const { field } = dimension;
  if (field.fieldType.valueKind === 'choices') return field.options.find((o) => o.key === raw)?.value ?? raw;
  return ctx.dialect.decode(field.fieldType.column!, raw);
}

function presentMeasure(value: ResolvedValue, raw: unknown): unknown {
  if (raw === null || raw === undefined) return value.aggregation === 'COUNT' || value.aggregation === 'DISTINCTCOUNT' ? 0 : null;
  return Number(raw);
}

function measuresOf(values: ResolvedValue[], row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(values.map((v, i) => [v.key, presentMeasure(v, row[`v${i}`])]));
}

/**
 * A pivot of a worksheet's records, grouped and aggregated by the database:
 * `{meta, pivot:[{rows, columns, values}], summary?, totalPages, currentPage}`, cells keyed by
 * field id (or `record_count`).
 * @example pivotRecords(ctx, 'orders', { rows: [{ field: 'status' }], values: [{ field: 'amount', aggregation: 'sum' }] })
 */
export async function pivotRecords(ctx: ServiceContext, worksheetKey: string, input: PivotInput) {
  const schema = await loadSchema(ctx, worksheetKey);
  if (!input.values || input.values.length === 0) throw AppError.invalidParameters('values: at least one value is required, e.g. {"field": "record_count"}');
  const rowDims = (input.rows ?? []).map((d, i) => resolveDimension(schema, d, `rows[${i}]`));
  const columnDims = (input.columns ?? []).map((d, i) => resolveDimension(schema, d, `columns[${i}]`));
  const values = input.values.map((v, i) => resolveValue(schema, v, `values[${i}]`));
  checkUnique([...rowDims.map((d, i): [string, string] => [d.field.id, `rows[${i}]`]), ...columnDims.map((d, i): [string, string] => [d.field.id, `columns[${i}]`])]);
  checkUnique(values.map((v, i) => [v.key, `values[${i}]`]));
  const dimensions = [...rowDims, ...columnDims];
  const predicate = compileFilter({ schema, dialect: ctx.dialect, now: ctx.now(), timeZone: ctx.timeZone, selfAccountId: ctx.actor.accountId }, input.filter);
  const query: repository.PivotQuery = {
    table: schema.table,
    predicate,
    dimensions: dimensions.map((d) => d.sql),
    measures: values.map((v) => v.sql),
    dialect: ctx.dialect,
    timeZone: ctx.timeZone,
  };
  const pageSize = input.pageSize ?? 100;
  const pageIndex = input.pageIndex ?? 1;
  const [groups, groupCount, summary] = await Promise.all([
    repository.pivotPage(ctx.db, query, orderOf(input, dimensions, values), pageSize, (pageIndex - 1) * pageSize),
    repository.countGroups(ctx.db, query),
    input.includeSummary ? repository.summarize(ctx.db, query) : undefined,
  ]);
  const cellsOf = (dims: ResolvedDimension[], offset: number, row: Record<string, unknown>) =>
    Object.fromEntries(dims.map((d, i) => [d.field.id, presentDimension(ctx, d, row[`d${offset + i}`])]));
  const metaOf = (d: ResolvedDimension) => ({ field: d.field.id, displayName: d.displayName, ...(d.granularity ? { granularity: d.granularity } : {}), includeEmpty: d.sql.includeEmpty });
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
