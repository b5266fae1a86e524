import { sql, type SqlBool } from 'kysely';
import { isNotNull, isNull, operandList, orEmpty, storedOperand, type ConditionInput, type ConditionKind } from './condition-kind.js';

/** Option keys named by the condition (by key or exact text, as writes take them). */
function optionKeys(input: ConditionInput): string[] {
  return operandList(input).flatMap((value) => {
    const stored = storedOperand(input, value);
    return Array.isArray(stored) ? (stored as string[]) : [stored as string];
  });
}

const isAnyOf = (input: ConditionInput) => sql<SqlBool>`${input.column} IN (${sql.join(optionKeys(input))})`;

/** Single choices (SingleSelect, Dropdown), stored as the option key: eq and in mean "is one of". */
export const singleChoiceConditions: ConditionKind = {
  plainColumn: true,
  operators: {
    eq: isAnyOf,
    in: isAnyOf,
    ne: (input) => orEmpty(input.column, isAnyOf(input)),
    notin: (input) => orEmpty(input.column, isAnyOf(input)),
    isempty: isNull,
    isnotempty: isNotNull,
  },
};

const holdsAny = (input: ConditionInput) => input.dialect.jsonArrayContainsAny(input.column, optionKeys(input));

/**
 * Multiple choices, stored as a JSON array of keys: eq and in mean "holds any of", ne and notin
 * "holds none of", concurrent "holds all of".
 */
export const multipleChoiceConditions: ConditionKind = {
  operators: {
    eq: holdsAny,
    in: holdsAny,
    ne: (input) => orEmpty(input.column, holdsAny(input)),
    notin: (input) => orEmpty(input.column, holdsAny(input)),
    concurrent: (input) => input.dialect.jsonArrayContainsAll(input.column, optionKeys(input)),
    isempty: isNull,
    isnotempty: isNotNull,
  },
};
