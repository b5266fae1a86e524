import { sql, type SqlBool } from 'kysely';
import { isNotNull, isNull, operandList, operandPair, orEmpty, singleOperand, storedOperand, type ConditionInput, type ConditionKind, type OperatorCompiler } from './condition-kind.js';

function values(input: ConditionInput): unknown[] {
  return operandList(input).map((value) => storedOperand(input, value));
}

function compare(operator: '>' | '>=' | '<' | '<='): OperatorCompiler {
  return (input) => sql<SqlBool>`${input.column} ${sql.raw(operator)} ${storedOperand(input, singleOperand(input))}`;
}

function between(input: ConditionInput) {
  const [from, to] = operandPair(input);
  const parts = [];
  if (from !== null) parts.push(sql<SqlBool>`${input.column} >= ${storedOperand(input, from)}`);
  if (to !== null) parts.push(sql<SqlBool>`${input.column} <= ${storedOperand(input, to)}`);
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

/** Numbers (Number, Currency, Rating, …): values as numbers or numeric strings; `between` is inclusive. */
export const numberConditions: ConditionKind = {
  plainColumn: true,
  operators: {
    eq: (input) => sql<SqlBool>`${input.column} IN (${sql.join(values(input))})`,
    ne: (input) => orEmpty(input.column, sql<SqlBool>`${input.column} IN (${sql.join(values(input))})`),
    gt: compare('>'),
    ge: compare('>='),
    lt: compare('<'),
    le: compare('<='),
    between,
    notbetween: (input) => orEmpty(input.column, between(input)),
    isempty: isNull,
    isnotempty: isNotNull,
  },
};
