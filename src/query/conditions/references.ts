import { sql } from 'kysely';
import { AppError } from '../../shared/app-error.js';
import { operandList, orEmpty, type ConditionInput, type ConditionKind, type OperatorCompiler } from './condition-kind.js';
import { holdsConditions, oneOfConditions } from './membership.js';

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

/** Members and departments in fields, stored as JSON arrays of ids. */
export const referenceConditions = holdsConditions(ids);

/** One id in a text column: the record id, and the creator, updater and owner system fields. */
export const singleIdConditions = oneOfConditions(ids);

/**
 * The named departments and every department below them, found by walking `parent_id` down in the
 * database (UNION, not UNION ALL: a cycle in the tree ends the walk instead of looping).
 */
function departmentsWithin(input: ConditionInput) {
  return sql`WITH RECURSIVE within_departments(id) AS (SELECT id FROM departments WHERE id IN (${sql.join(ids(input))}) UNION SELECT below.id FROM departments below JOIN within_departments ON below.parent_id = within_departments.id) SELECT id FROM within_departments`;
}

const holdsDepartmentWithin: OperatorCompiler = (input) => input.dialect.jsonArrayContainsAnyOf(input.column, departmentsWithin(input));

/**
 * Departments in fields: as members, plus `belongsto` (holds one of the named departments or one
 * below them) and `notbelongsto` (holds none of them; empty values included).
 */
export const departmentConditions: ConditionKind = {
  ...referenceConditions,
  operators: {
    ...referenceConditions.operators,
    belongsto: holdsDepartmentWithin,
    notbelongsto: (input) => orEmpty(input.column, holdsDepartmentWithin(input)),
  },
};
