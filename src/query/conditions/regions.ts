import { sql, type SqlBool } from 'kysely';
import { AppError } from '../../shared/app-error.js';
import { operandList, orEmpty, type ConditionInput } from './condition-kind.js';
import { oneOfConditions } from './membership.js';

/** Region codes named by the condition: digits, as writes take them ("310100" or 310100). */
function codes(input: ConditionInput): string[] {
  return operandList(input).map((value) => {
    const code = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
    if (typeof code !== 'string' || !/^\d{2,12}$/.test(code)) throw AppError.invalidValue(`${input.label}: expected region codes such as "310100", got ${JSON.stringify(value)?.slice(0, 40)}`);
    return code;
  });
}

/**
 * A region lies within another when its code starts with the other's code without its trailing
 * zero pairs: 310000 (a province) holds 310100 (a city), which holds 310101 (a county).
 */
const liesWithin = (input: ConditionInput) => {
  const prefixes = codes(input).map((code) => code.replace(/(00)+$/, '') || code);
  return sql<SqlBool>`(${sql.join(prefixes.map((prefix) => sql`${input.column} LIKE ${`${prefix}%`}`), sql` OR `)})`;
};

/** Regions (19, 23, 24), stored as their code: compared exactly, never as text. */
export const regionConditions = oneOfConditions(codes, {
  belongsto: liesWithin,
  notbelongsto: (input) => orEmpty(input.column, liesWithin(input)),
});
