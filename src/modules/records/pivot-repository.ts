import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { DateGranularity, SqlDialect, StoredDate } from '../../db/dialect/sql-dialect.js';
import type { ScopedRows } from '../../access/index.js';
import { sortExpression } from './sort-expression.js';
import { rows } from './repository.js';

/**
 * The SQL of pivots: one GROUP BY over a worksheet's live rows, computed by the engine. Groups
 * are named `d0, d1…` (dimensions) and `v0, v1…` (values) inside the statement, so that neither
 * field ids nor client names reach the SQL text as identifiers other than columns.
 */
export type Aggregation = 'COUNT' | 'DISTINCTCOUNT' | 'SUM' | 'MIN' | 'MAX' | 'AVG';

/** One grouping column: the stored value, the period a date falls in, or each element of a JSON array. */
export interface PivotDimension {
  column: string;
  /** The column holds a JSON array (multiple choices, members, departments): one group per element, a record counting in each of its groups. */
  elements: boolean;
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
  /** The caller's data scope ANDed with the pivot's filter (`access/`). */
  predicate: ScopedRows;
  dimensions: PivotDimension[];
  measures: PivotMeasure[];
  dialect: SqlDialect;
  timeZone: string;
}

/** The covered rows are read as `r`; the elements of the i-th array dimension as `e<i>`. */
function dimensionExpression(query: PivotQuery, dimension: PivotDimension, index: number): Expression<unknown> {
  if (dimension.elements) return sql.ref(`e${index}.value`);
  const column = sql.ref(`r.${dimension.column}`);
  if (!dimension.bucket) return column;
  return query.dialect.dateBucket(column, dimension.bucket.granularity, dimension.bucket.storedAs, query.timeZone);
}

function aggregateExpression(measure: PivotMeasure): RawBuilder<unknown> {
  if (measure.column === null) return sql`COUNT(*)`;
  const column = sql.ref(`r.${measure.column}`);
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

/**
 * Live rows the predicate lets through, less the rows whose excluded-when-empty scalar dimensions
 * are empty, as the table `r` (a subquery, so that the columns of joined element tables, such as
 * SQLite's json_each `id`, never make a filter's column ambiguous).
 */
function coveredRows(db: Executor, query: PivotQuery) {
  let select = rows(db).selectFrom(query.table).selectAll().where('_deleted_at', 'is', null);
  if (!query.predicate.everyRow) select = select.where(query.predicate.expression);
  for (const dimension of query.dimensions) if (!dimension.includeEmpty && !dimension.elements) select = select.where(dimension.column, 'is not', null);
  return rows(db).selectFrom(select.as('r'));
}

/**
 * One row per group: `d0…` and `v0…`. An array dimension joins its column's elements (a record
 * without any stays, in the empty group, unless empty groups are excluded). GROUP BY names output
 * positions, so bound parameters in bucket expressions need not repeat.
 */
function groupedRows(db: Executor, query: PivotQuery) {
  let from = coveredRows(db, query);
  query.dimensions.forEach((dimension, i) => {
    if (!dimension.elements) return;
    from = from.leftJoin(query.dialect.jsonArrayElements(sql.ref(`r.${dimension.column}`)).as(`e${i}`), (join) => join.onTrue());
    if (!dimension.includeEmpty) from = from.where(sql.ref(`e${i}.value`), 'is not', null);
  });
  const select = from.select([
    ...query.dimensions.map((d, i) => sql`${dimensionExpression(query, d, i)}`.as(`d${i}`)),
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

/** The measures over every covered row (each record once, whatever its array dimensions hold), as one row `v0…`. */
export async function summarize(db: Executor, query: PivotQuery): Promise<Record<string, unknown>> {
  let covered = coveredRows(db, query);
  // Records whose excluded-when-empty array dimensions are empty are left out, as in the groups.
  for (const dimension of query.dimensions) {
    if (dimension.elements && !dimension.includeEmpty) covered = covered.where(sql<boolean>`EXISTS (SELECT 1 FROM ${query.dialect.jsonArrayElements(sql.ref(`r.${dimension.column}`))} AS held)`);
  }
  const row = await covered.select(query.measures.map((m, i) => aggregateExpression(m).as(`v${i}`))).executeTakeFirst();
  return (row ?? {}) as Record<string, unknown>;
}
