import { sql } from 'kysely';
import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../../fields/field-type.js';

/** Records per statement when computed values are read or written: well under every engine's parameter limit. */
export const CHUNK = 500;

export function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * Writes computed values of several fields to several records in one statement:
 * `UPDATE t SET f1 = CASE id WHEN ? THEN CAST(? AS type) … END, f2 = … WHERE id IN (…)`. Every record
 * of `values` gets a value for every field (null included). The CAST gives the engine the column's
 * type for parameters it could not infer (PostgreSQL).
 */
export async function writeComputedValues(trx: Executor, dialect: SqlDialect, table: string, fields: FieldMeta[], values: Map<string, Map<string, unknown>>): Promise<void> {
  if (values.size === 0 || fields.length === 0) return;
  const ids = [...values.keys()];
  const assignments = fields.map((field) => {
    const column = field.fieldType.column!;
    const type = sql.raw(dialect.columnType(column));
    const cases = ids.map((id) => sql`WHEN ${id} THEN CAST(${dialect.encode(column, values.get(id)!.get(field.id) ?? null)} AS ${type})`);
    return sql`${sql.id(field.id)} = CASE id ${sql.join(cases, sql` `)} END`;
  });
  await sql`UPDATE ${sql.table(table)} SET ${sql.join(assignments)} WHERE id IN (${sql.join(ids)})`.execute(trx);
}
