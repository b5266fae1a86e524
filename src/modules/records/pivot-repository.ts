import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { DateGranularity, SqlDialect, StoredDate } from '../../db/dialect/sql-dialect.js';
import type { RowPredicate } from '../../query/index.js';
import { sortExpression } from './sort-expression.js';

/**
 * The SQL of pivots: one GROUP BY over a worksheet's live rows, computed by the engine. Groups
 * are named `d0, d1…` (dimensions) and `v0, v1…` (values) inside the statement, so that neither
 * field ids nor client names reach the SQL text as identifiers other than columns.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RowDb = Kysely<any>;

export type Aggregation = 'COUNT' | 'DISTINCTCOUNT' | 'SUM' | 'MIN' | 'MAX' | 'AVG';

/** One grouping column: the stored value, or the period a date falls in. */
export interface PivotDimension {
  column: string;
  bucket: { granularity: DateGranularity; storedAs: StoredDate } | null;
  /** false: groups where the column is empty are left out. */
  includeEmpty: boolean;
  /** Orders groups by the position of the stored key in this list (single choices), empty first. */
  optionOrder: string[] | null;
}

/** One aggregate; a null column is the row count. */
export interface PivotMeasure {
  column: string | null;
  aggregation: Aggregation;
}

/** One ORDER BY term over the groups: a dimension or a measure by position. */
export interface PivotOrder {
  target: 'dimension' | 'measure';
  index: number;
  ascending: boolean;
}

export interface PivotQuery {
  table: string;
  predicate: RowPredicate;
  dimensions: PivotDimension[];
  measures: PivotMeasure[];
  dialect: SqlDialect;
  timeZone: string;
}

function rows(db: Executor): RowDb {
  return db as unknown as RowDb;
}

function dimensionExpression(query: PivotQuery, dimension: PivotDimension): Expression<unknown> {
  const column = sql.ref(dimension.column);
  if (!dimension.bucket) return column;
  return query.dialect.dateBucket(column, dimension.bucket.granularity, dimension.bucket.storedAs, query.timeZone);
}

function aggregateExpression(measure: PivotMeasure): RawBuilder<unknown> {
  if (measure.column === null) return sql`COUNT(*)`;
  const column = sql.ref(measure.column);
  const aggregates: Record<Aggregation, () => RawBuilder<unknown>> = {
    COUNT: () => sql`COUNT(${column})`,
    DISTINCTCOUNT: () => sql`COUNT(DISTINCT ${column})`,
    SUM: () => sql`SUM(${column})`,
    MIN: () => sql`MIN(${column})`,
    MAX: () => sql`MAX(${column})`,
    AVG: () => sql`AVG(${column})`,
  };
  return aggregates[measure.aggregation]();
}

/** Live rows the predicate lets through, less the rows whose excluded-when-empty dimensions are empty. */
function coveredRows(db: Executor, query: PivotQuery) {
  let select = rows(db).selectFrom(query.table).where('_deleted_at', 'is', null);
  if (!query.predicate.everyRow) select = select.where(query.predicate.expression);
  for (const dimension of query.dimensions) if (!dimension.includeEmpty) select = select.where(dimension.column, 'is not', null);
  return select;
}

/** One row per group: `d0…` and `v0…`. GROUP BY names output positions, so bound parameters in bucket expressions need not repeat. */
function groupedRows(db: Executor, query: PivotQuery) {
  const select = coveredRows(db, query).select([
    ...query.dimensions.map((d, i) => sql`${dimensionExpression(query, d)}`.as(`d${i}`)),
    ...query.measures.map((m, i) => aggregateExpression(m).as(`v${i}`)),
  ]);
  if (query.dimensions.length === 0) return select;
  return select.groupBy(query.dimensions.map((_, i) => sql.raw(String(i + 1))));
}

function orderExpression(query: PivotQuery, order: PivotOrder) {
  const alias = sql.ref(`g.${order.target === 'dimension' ? 'd' : 'v'}${order.index}`);
  const optionOrder = order.target === 'dimension' ? query.dimensions[order.index].optionOrder : null;
  return sortExpression(alias, order.ascending, optionOrder);
}

/**
 * A page of groups in the given order (which should end with every dimension, so that pages
 * never overlap).
 */
export async function pivotPage(db: Executor, query: PivotQuery, order: PivotOrder[], limit: number, offset: number): Promise<Array<Record<string, unknown>>> {
  let select = rows(db).selectFrom(groupedRows(db, query).as('g')).selectAll();
  for (const term of order) select = select.orderBy(orderExpression(query, term));
  return (await select.limit(limit).offset(offset).execute()) as Array<Record<string, unknown>>;
}

/** How many groups the pivot has. */
export async function countGroups(db: Executor, query: PivotQuery): Promise<number> {
  const row = await rows(db)
    .selectFrom(groupedRows(db, query).as('g'))
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The measures over every covered row, as one row `v0…`. */
export async function summarize(db: Executor, query: PivotQuery): Promise<Record<string, unknown>> {
  const row = await coveredRows(db, query)
    .select(query.measures.map((m, i) => aggregateExpression(m).as(`v${i}`)))
    .executeTakeFirst();
  return (row ?? {}) as Record<string, unknown>;
}
