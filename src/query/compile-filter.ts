import { sql, type Expression, type SqlBool } from 'kysely';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import type { WorksheetSchema } from '../modules/worksheets/worksheet-schema.js';
import { OPERATORS, type OperatorName, type QueryField } from './conditions/condition-kind.js';
import { parseFilter, type FilterCondition, type FilterNode } from './filter-tree.js';
import { fieldQuery, systemQuery } from './query-fields.js';
import { EVERY_ROW, predicateOf, type RowPredicate } from './row-predicate.js';

/** What a filter is compiled in: the worksheet, the engine, the time and who `user-self` is. */
export interface FilterScope {
  schema: WorksheetSchema;
  dialect: SqlDialect;
  now: number;
  timeZone: string;
  selfAccountId: string;
  /** Fields the caller may not see: naming one is refused (430014), as if it were any other field. */
  hiddenFields?: ReadonlySet<string>;
}

const KNOWN_OPERATORS: ReadonlySet<string> = new Set(OPERATORS);

function resolveField(scope: FilterScope, condition: FilterCondition): QueryField {
  const meta = scope.schema.byKey.get(condition.field);
  if (meta && scope.hiddenFields?.has(meta.id)) throw new AppError(ErrorCode.FieldPermissionDenied, 403, `${condition.path}.field: you may not see the field "${meta.name}"`);
  if (meta) {
    const field = fieldQuery(meta, condition.field);
    if (!field) throw AppError.invalidValue(`${condition.path}.field: "${meta.name}" is a ${meta.fieldType.name} field, which holds no value to filter by`);
    return field;
  }
  const system = systemQuery(condition.field);
  if (!system) throw AppError.invalidValue(`${condition.path}.field: no field "${condition.field.slice(0, 80)}" in this worksheet`);
  return system;
}

function compileCondition(scope: FilterScope, condition: FilterCondition, field: QueryField, related: Set<string>): Expression<SqlBool> {
  const label = `${condition.path} "${field.name}"`;
  if (!KNOWN_OPERATORS.has(condition.operator)) {
    throw AppError.invalidValue(`${label}: unknown operator ${JSON.stringify(condition.operator.slice(0, 30))}; operators are ${OPERATORS.join(', ')}`);
  }
  const compile = field.kind.operators[condition.operator as OperatorName];
  if (!compile) {
    const typeName = field.meta ? field.meta.fieldType.name : field.name;
    const allowed = Object.keys(field.kind.operators);
    throw AppError.invalidValue(
      `${label}: operator ${condition.operator} is not allowed on ${typeName}${allowed.length ? `; use ${allowed.join(', ')}` : ''}`,
    );
  }
  return compile({
    condition,
    field,
    column: sql.ref(field.column),
    dialect: scope.dialect,
    label,
    now: scope.now,
    timeZone: scope.timeZone,
    selfAccountId: scope.selfAccountId,
    rowTable: scope.schema.table,
    relatedWorksheets: related,
  });
}

/**
 * Columns an index could serve, from the conditions every row must meet (those reached through AND
 * groups only): equality (eq, in) and range (gt, ge, lt, le, between) on plainly stored columns.
 */
export interface IndexableColumns {
  equality: string[];
  range: string[];
  /**
   * Every condition of the filter is one of these (reached through AND groups, on a plain column):
   * an index holding the columns above holds every column the filter reads.
   */
  complete: boolean;
}

const EQUALITY = new Set(['eq', 'in']);
const RANGE = new Set(['gt', 'ge', 'lt', 'le', 'between']);

/** Notes the condition's column; false when the condition is not an equality or range on a plain column. */
function noteIndexable(field: QueryField, operator: string, columns: IndexableColumns): boolean {
  if (!field.kind.plainColumn) return false;
  // The record id is the primary key: no other index is needed to find rows by it (and every index holds it).
  if (field.column === 'id') return true;
  const list = EQUALITY.has(operator) ? columns.equality : RANGE.has(operator) ? columns.range : null;
  if (list && !list.includes(field.column)) list.push(field.column);
  return list !== null;
}

/** `indexable` is null inside OR groups, whose conditions no index key can serve; `columns` still learns that the filter is not complete. */
function compileNode(scope: FilterScope, node: FilterNode, indexable: IndexableColumns | null, related: Set<string>, columns: IndexableColumns): Expression<SqlBool> | null {
  if (node.kind === 'condition') {
    const field = resolveField(scope, node);
    const compiled = compileCondition(scope, node, field, related);
    if (!indexable || !noteIndexable(field, node.operator, indexable)) columns.complete = false;
    return compiled;
  }
  const inner = node.logic === 'and' ? indexable : null;
  const parts = node.children.map((child) => compileNode(scope, child, inner, related, columns)).filter((part): part is Expression<SqlBool> => part !== null);
  // A group without conditions holds for every row, so it adds nothing to its parent.
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0];
  return sql<SqlBool>`(${sql.join(parts, sql.raw(node.logic === 'and' ? ' AND ' : ' OR '))})`;
}

/**
 * Compiles the filter of a request into the predicate reads take. Every problem is an error that
 * names the condition (`filter.children[1] "Amount": operator contains is not allowed on Number`);
 * nothing is dropped silently.
 * @example compileFilter(scope, { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'qty', operator: 'gt', value: 5 }] })
 */
export function compileFilter(scope: FilterScope, filter: unknown, path = 'filter'): RowPredicate {
  return planFilter(scope, filter, path).predicate;
}

/** The predicate of a filter, and the columns an index could serve it by. */
export function planFilter(scope: FilterScope, filter: unknown, path = 'filter'): { predicate: RowPredicate; indexable: IndexableColumns } {
  const tree = parseFilter(filter, path);
  const indexable: IndexableColumns = { equality: [], range: [], complete: true };
  const related = new Set<string>();
  const expression = tree ? compileNode(scope, tree, indexable, related, indexable) : null;
  return { predicate: expression ? predicateOf(expression, related) : EVERY_ROW, indexable };
}

/** Most key columns of an index chosen from a list's filter and sort, and most columns it carries after them. */
const MAX_INDEX_COLUMNS = 4;
const MAX_INCLUDED_COLUMNS = 3;

/** An index's key columns in order, and the columns it carries after the key (tested on the entry, not ordered by). */
export interface PlannedIndex {
  key: string[];
  include: string[];
}

/**
 * The index that would serve a list best (an empty key when none would): the filter's equality
 * columns, then the first sort column (so rows come out in order and the page stops early), or
 * without a sort the first range column; the other range columns are carried after the key, so
 * that the rows they exclude are skipped on the index entry instead of being read. Columns the
 * sort orders by something else than their value (option order) cannot use an index: then only
 * the equality columns lead.
 * @example indexFor({ equality: [status], range: [qty] }, price) // → { key: [status, price], include: [qty] }
 */
export function indexFor(indexable: IndexableColumns, sortColumn: string | null): PlannedIndex {
  const key = indexable.equality.slice(0, MAX_INDEX_COLUMNS - 1);
  // Sorting by the record id needs no index column: every read index holds it right after the key.
  const last = (sortColumn === 'id' ? null : sortColumn) ?? indexable.range[0];
  if (last && !key.includes(last)) key.push(last);
  if (key.length === 0) return { key, include: [] };
  const include = indexable.range.filter((column) => !key.includes(column)).slice(0, MAX_INCLUDED_COLUMNS);
  return { key, include };
}

/**
 * The index a pivot (or chart) could be answered from alone, without reading a row: the filter's
 * equality columns and the grouped columns as its key (groups then stream out of the index in
 * order), the range and aggregated columns carried. Such an index is a fraction of the table's
 * size, so a pivot over every row reads it instead of the table. None (an empty key) when the
 * filter reads other columns or there are too many columns: an index that does not hold every
 * column would send the engine to the rows for each entry, dearer than reading the table.
 * @example pivotIndexFor({ equality: [], range: [], complete: true }, [status], [price]) // → { key: [status], include: [price] }
 */
export function pivotIndexFor(indexable: IndexableColumns, grouped: string[], aggregated: string[]): PlannedIndex {
  const none = { key: [], include: [] };
  if (!indexable.complete) return none;
  const key = [...new Set([...indexable.equality, ...grouped])].filter((column) => column !== 'id');
  const include = [...new Set([...indexable.range, ...aggregated])].filter((column) => column !== 'id' && !key.includes(column));
  if (key.length === 0 || key.length > MAX_INDEX_COLUMNS || include.length > MAX_INCLUDED_COLUMNS) return none;
  return { key, include };
}

/**
 * Whether an index (by its columns) serves everything a planned pivot index would: its key begins
 * with the planned key and it holds every carried column.
 * @example coversPivot({ key: [status, price], include: [qty] }, { key: [status], include: [price] }) // true
 */
export function coversPivot(existing: PlannedIndex, planned: PlannedIndex): boolean {
  if (planned.key.some((column, i) => existing.key[i] !== column)) return false;
  const held = new Set([...existing.key, ...existing.include]);
  return planned.include.every((column) => held.has(column));
}
