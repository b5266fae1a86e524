import { sql, type SqlBool } from 'kysely';
import { AppError } from '../../shared/app-error.js';
import { isNotNull, isNull, operandList, orEmpty, type ConditionInput, type ConditionKind } from './condition-kind.js';

/** `user-self` is the caller; the other pseudo-users (`user-api`, `user-workflow`) are ids as they are. */
const SELF = 'user-self';

/** Ids a condition names: strings, or objects carrying `accountId` / `id` (as reads show them). */
function ids(input: ConditionInput): string[] {
  return operandList(input).map((value) => {
    const id = typeof value === 'object' && value !== null ? ((value as Record<string, unknown>).accountId ?? (value as Record<string, unknown>).id) : value;
    if (typeof id !== 'string' || id === '') throw AppError.invalidValue(`${input.label}: expected ids, got ${JSON.stringify(value)?.slice(0, 40)}`);
    return id === SELF ? input.selfAccountId : id;
  });
}

const holdsAny = (input: ConditionInput) => input.dialect.jsonArrayContainsAny(input.column, ids(input));

/** Members and departments in fields, stored as JSON arrays of ids: as multiple choices, by id. */
export const referenceConditions: ConditionKind = {
  operators: {
    eq: holdsAny,
    in: holdsAny,
    ne: (input) => orEmpty(input.column, holdsAny(input)),
    notin: (input) => orEmpty(input.column, holdsAny(input)),
    concurrent: (input) => input.dialect.jsonArrayContainsAll(input.column, ids(input)),
    isempty: isNull,
    isnotempty: isNotNull,
  },
};

const isOneOf = (input: ConditionInput) => sql<SqlBool>`${input.column} IN (${sql.join(ids(input))})`;

/** One id in a text column: the record id, and the creator, updater and owner system fields. */
export const singleIdConditions: ConditionKind = {
  plainColumn: true,
  operators: {
    eq: isOneOf,
    in: isOneOf,
    ne: (input) => orEmpty(input.column, isOneOf(input)),
    notin: (input) => orEmpty(input.column, isOneOf(input)),
    isempty: isNull,
    isnotempty: isNotNull,
  },
};
