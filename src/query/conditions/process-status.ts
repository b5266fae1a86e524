import { AppError } from '../../shared/app-error.js';
import { PROCESS_STATUSES } from '../../shared/process-fields.js';
import { operandList } from './condition-kind.js';
import { oneOfConditions } from './membership.js';

const KNOWN: ReadonlySet<string> = new Set(PROCESS_STATUSES);

/**
 * `_processStatus`: one of pass, refuse, abort, other, compared as a single choice (`eq`/`in` is
 * one of, `ne`/`notin` none of). A value that is no status is refused, naming the four.
 */
export const processStatusConditions = oneOfConditions((input) =>
  operandList(input).map((value) => {
    const status = typeof value === 'object' && value !== null ? (value as { key?: unknown }).key : value;
    if (typeof status !== 'string' || !KNOWN.has(status)) throw AppError.invalidValue(`${input.label}: ${JSON.stringify(value)?.slice(0, 40)} is not a process status; use ${PROCESS_STATUSES.join(', ')}`);
    return status;
  }),
);
