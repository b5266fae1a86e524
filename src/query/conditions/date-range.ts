import { sql, type Expression, type SqlBool } from 'kysely';
import { operandPair, orEmpty, singleOperand, type ConditionInput, type ConditionKind, isNull, isNotNull } from './condition-kind.js';

/**
 * Date-like kinds compare ranges, not points: a written value names a period (a day, a minute, a
 * dynamic range such as `thisWeek`), and each operator is defined on that period:
 * eq = within it, gt = after its end, ge = from its start, lt = before its start, le = up to its end,
 * between [a, b] = from the start of a to the end of b. `[start, end)` is half-open.
 */
export interface Period<T> {
  start: T;
  end: T;
}

export type PeriodOf<T> = (input: ConditionInput, value: unknown) => Period<T>;

function within<T>(column: Expression<unknown>, period: Period<T>): Expression<SqlBool> {
  return sql<SqlBool>`(${column} >= ${period.start} AND ${column} < ${period.end})`;
}

function between<T>(input: ConditionInput, periodOf: PeriodOf<T>): Expression<SqlBool> {
  const [from, to] = operandPair(input);
  const parts = [];
  if (from !== null) parts.push(sql<SqlBool>`${input.column} >= ${periodOf(input, from).start}`);
  if (to !== null) parts.push(sql<SqlBool>`${input.column} < ${periodOf(input, to).end}`);
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

/** The operators of a date-like kind, given how a value becomes a period of stored values. */
export function periodConditions<T>(periodOf: PeriodOf<T>): ConditionKind {
  const one = (input: ConditionInput) => periodOf(input, singleOperand(input));
  return {
    plainColumn: true,
    operators: {
      eq: (input) => within(input.column, one(input)),
      ne: (input) => orEmpty(input.column, within(input.column, one(input))),
      gt: (input) => sql<SqlBool>`${input.column} >= ${one(input).end}`,
      ge: (input) => sql<SqlBool>`${input.column} >= ${one(input).start}`,
      lt: (input) => sql<SqlBool>`${input.column} < ${one(input).start}`,
      le: (input) => sql<SqlBool>`${input.column} < ${one(input).end}`,
      between: (input) => between(input, periodOf),
      notbetween: (input) => orEmpty(input.column, between(input, periodOf)),
      isempty: isNull,
      isnotempty: isNotNull,
    },
  };
}
