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
 * The ids of the named regions and of every region below them, as a subquery of the `regions`
 * table (at most three levels deep): `column IN (regionsWithin(['440000']))`. Asked of the data,
 * not of the codes' digits: a country under 910000 海外 (910100, Bulgaria) holds nothing, and the
 * districts of 北京市 lie directly below it.
 * @example sql`${column} IN (${regionsWithin(['440000', '910000'])})`
 */
export function regionsWithin(ids: readonly string[]) {
  const named = sql.join([...ids]);
  return sql`SELECT within_region.id FROM regions within_region WHERE within_region.id IN (${named}) OR within_region.parent_id IN (${named}) OR within_region.parent_id IN (SELECT below_region.id FROM regions below_region WHERE below_region.parent_id IN (${named}))`;
}

/** A region lies within another when it is that region or one below it. */
const liesWithin = (input: ConditionInput) => sql<SqlBool>`${input.column} IN (${regionsWithin(codes(input))})`;

/** Regions (19, 23, 24), stored as their code: compared exactly, never as text. */
export const regionConditions = oneOfConditions(codes, {
  belongsto: liesWithin,
  notbelongsto: (input) => orEmpty(input.column, liesWithin(input)),
});
