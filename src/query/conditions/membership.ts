import { sql, type SqlBool } from 'kysely';
import { isNotNull, isNull, orEmpty, type ConditionInput, type ConditionKind, type OperatorCompiler } from './condition-kind.js';

/** How a kind reads the values of a condition (option keys, ids, codes), checked and converted. */
type ValuesOf = (input: ConditionInput) => unknown[];

/**
 * A column holding one stored value (an option key, an id, a region code): `eq` and `in` mean "is
 * one of", `ne` and `notin` "is none of" (empty values included). A plain index serves them.
 */
export function oneOfConditions(valuesOf: ValuesOf, extra: ConditionKind['operators'] = {}): ConditionKind {
  const isOneOf: OperatorCompiler = (input) => sql<SqlBool>`${input.column} IN (${sql.join(valuesOf(input))})`;
  return {
    plainColumn: true,
    operators: {
      eq: isOneOf,
      in: isOneOf,
      ne: (input) => orEmpty(input.column, isOneOf(input)),
      notin: (input) => orEmpty(input.column, isOneOf(input)),
      isempty: isNull,
      isnotempty: isNotNull,
      ...extra,
    },
  };
}

/**
 * A JSON array column (multiple choices, members, departments): `eq` and `in` mean "holds any of",
 * `ne` and `notin` "holds none of", `concurrent` "holds all of".
 */
export function holdsConditions(valuesOf: (input: ConditionInput) => string[]): ConditionKind {
  const holdsAny: OperatorCompiler = (input) => input.dialect.jsonArrayContainsAny(input.column, valuesOf(input));
  return {
    operators: {
      eq: holdsAny,
      in: holdsAny,
      ne: (input) => orEmpty(input.column, holdsAny(input)),
      notin: (input) => orEmpty(input.column, holdsAny(input)),
      concurrent: (input) => input.dialect.jsonArrayContainsAll(input.column, valuesOf(input)),
      isempty: isNull,
      isnotempty: isNotNull,
    },
  };
}
