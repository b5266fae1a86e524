import { operandList, storedOperand, type ConditionInput } from './condition-kind.js';
import { holdsConditions, oneOfConditions } from './membership.js';

/** Option keys named by the condition (by key or exact text, as writes take them). */
function optionKeys(input: ConditionInput): string[] {
  return operandList(input).flatMap((value) => {
    const stored = storedOperand(input, value);
    return Array.isArray(stored) ? (stored as string[]) : [stored as string];
  });
}

/** Single choices (SingleSelect, Dropdown), stored as the option key. */
export const singleChoiceConditions = oneOfConditions(optionKeys);

/** Multiple choices, stored as a JSON array of keys. */
export const multipleChoiceConditions = holdsConditions(optionKeys);
