import { sql, type RawBuilder } from 'kysely';

/**
 * One ORDER BY term on `expression`, the same for record lists and pivot groups: empty values
 * first ascending and last descending; with `optionOrder` (single choices), by the position of the
 * stored key in the option list rather than by the key. Positions are inlined, keys are parameters.
 * @example sortExpression(sql.ref('t.price'), false, null) // "t"."price" DESC NULLS LAST
 */
export function sortExpression(expression: RawBuilder<unknown>, ascending: boolean, optionOrder: string[] | null | undefined): RawBuilder<unknown> {
  if (!optionOrder) return sql`${expression} ${sql.raw(ascending ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`;
  const positions = optionOrder.map((key, i) => sql`WHEN ${expression} = ${key} THEN ${sql.lit(i)}`);
  return sql`CASE WHEN ${expression} IS NULL THEN -1 ${sql.join(positions, sql` `)} ELSE ${sql.lit(optionOrder.length)} END ${sql.raw(ascending ? 'ASC' : 'DESC')}`;
}
