import { AppError } from '../../shared/app-error.js';
import { operandList, type ConditionInput } from './condition-kind.js';
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
