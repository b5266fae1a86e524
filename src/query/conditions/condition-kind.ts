import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { SqlDialect, LogicalColumnType } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { AppError } from '../../shared/app-error.js';
import { parseNumber } from '../../fields/kinds/number-kind.js';
import type { FilterCondition } from '../filter-tree.js';

/** Every operator of the filter language. */
export const OPERATORS = [
  'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'in', 'notin', 'contains', 'notcontains', 'concurrent', 'belongsto', 'notbelongsto',
  'startswith', 'notstartswith', 'endswith', 'notendswith', 'between', 'notbetween', 'isempty', 'isnotempty',
] as const;
export type OperatorName = (typeof OPERATORS)[number];

/** What a condition is compiled against: a field of the worksheet or a system column. */
export interface QueryField {
  /** How the client named it (`amount`, `_createdAt`, `ctime`). */
  key: string;
  /** How messages name it. */
  name: string;
  /** The physical column. */
  column: string;
  columnType: LogicalColumnType;
  /** The worksheet field, or null for a system column. */
  meta: FieldMeta | null;
  kind: ConditionKind;
}

/** Everything an operator needs to turn one condition into SQL. */
export interface ConditionInput {
  condition: FilterCondition;
  field: QueryField;
  /** The column as an expression. */
  column: Expression<unknown>;
  dialect: SqlDialect;
  /** `filter.children[0] "Amount"`: how messages name the condition. */
  label: string;
  /** Epoch milliseconds of the request, for dynamic dates. */
  now: number;
  timeZone: string;
  /** The account `user-self` stands for. */
  selfAccountId: string;
  /** The filtered worksheet's row table, for subqueries that correlate with the outer row. */
  rowTable: string;
  /** Collects the other worksheets whose records the condition reads (relations). */
  relatedWorksheets: Set<string>;
}

export type OperatorCompiler = (input: ConditionInput) => Expression<SqlBool>;

/**
 * The operators a value kind supports and how each becomes SQL. Field types pick their kind through
 * their `valueKind` (and column); a kind lists exactly the operators the public interface gives it.
 */
export interface ConditionKind {
  operators: Partial<Record<OperatorName, OperatorCompiler>>;
  /**
   * Whether eq/in and ranges compare the stored column itself (numbers, dates, option keys, codes),
   * so that a plain index on it serves them. Text folds case and arrays are searched: no.
   */
  plainColumn?: boolean;
}

/** The condition's value as a non-empty list (a single value is a list of one). */
export function operandList(input: ConditionInput): unknown[] {
  const { value, hasValue } = input.condition;
  const list = Array.isArray(value) ? value : [value];
  if (!hasValue || list.length === 0 || list.every((v) => v === null || v === '')) {
    throw AppError.invalidParameters(`${input.label}: operator ${input.condition.operator} needs a value`);
  }
  return list.filter((v) => v !== null && v !== '');
}

/** The one value of an operator that takes exactly one. */
export function singleOperand(input: ConditionInput): unknown {
  const list = operandList(input);
  if (list.length !== 1) throw AppError.invalidValue(`${input.label}: operator ${input.condition.operator} takes one value, got ${list.length}`);
  return list[0];
}

/** `between` bounds: a two-element array; an empty bound leaves that side open. */
export function operandPair(input: ConditionInput): [unknown, unknown] {
  const { value, operator } = input.condition;
  if (!Array.isArray(value) || value.length !== 2) {
    throw AppError.invalidValue(`${input.label}: operator ${operator} takes a two-element array [from, to]`);
  }
  const [from, to] = value.map((v) => (v === '' ? null : v));
  if (from === null && to === null) throw AppError.invalidValue(`${input.label}: operator ${operator} needs at least one bound`);
  return [from, to];
}

/** A negative operator holds for empty values too: "not Open" includes records with no status. */
export function orEmpty(column: Expression<unknown>, condition: Expression<SqlBool>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${column} IS NULL OR NOT (${condition}))`;
}

export function anyOf(conditions: Array<Expression<SqlBool>>): RawBuilder<SqlBool> {
  return conditions.length === 1 ? sql<SqlBool>`${conditions[0]}` : sql<SqlBool>`(${sql.join(conditions, sql` OR `)})`;
}

export function allOf(conditions: Array<Expression<SqlBool>>): RawBuilder<SqlBool> {
  return conditions.length === 1 ? sql<SqlBool>`${conditions[0]}` : sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}

export const isNull: OperatorCompiler = ({ column }) => sql<SqlBool>`${column} IS NULL`;
export const isNotNull: OperatorCompiler = ({ column }) => sql<SqlBool>`${column} IS NOT NULL`;

/**
 * Converts a filter value to the stored form through the field type's own `write`, so that a
 * filter understands exactly what a write understands (option text or key, "12.50", dates), and
 * refuses what a write refuses, naming the condition.
 */
export function storedOperand(input: ConditionInput, value: unknown): unknown {
  const meta = input.field.meta;
  // A computed value cannot be written, but it is compared like the values of its kind.
  if (meta?.fieldType.computed) return computedOperand(input, value);
  const write = meta?.fieldType.write;
  if (!meta || !write) return value;
  const stored = write(value, meta, { timeZone: input.timeZone, label: input.label });
  if (stored === null) throw AppError.invalidValue(`${input.label}: ${JSON.stringify(value)} is not a value ${input.field.name} can hold`);
  return stored;
}

/** A filter value for a computed field: a number for numeric kinds (numbers or numeric strings), text otherwise. */
function computedOperand(input: ConditionInput, value: unknown): unknown {
  if (input.field.meta!.fieldType.valueKind !== 'number') return typeof value === 'string' ? value : JSON.stringify(value);
  const number = parseNumber(value);
  if (number === undefined) throw AppError.invalidValue(`${input.label}: expected a number, got ${JSON.stringify(value)?.slice(0, 40)}`);
  return number;
}
