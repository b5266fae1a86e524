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
 * Writes computed values of several fields to several records in one statement, joining the table
 * to the values by record id (each record found by its key, whatever the number of records):
 * `WITH v(id, f1, f2) AS (VALUES (?, CAST(? AS type), …), …) UPDATE t SET f1 = v.f1, … FROM v WHERE t.id = v.id`.
 * Every record of `values` gets a value for every field (null included). The CAST gives the engine
 * the column's type for parameters it could not infer (PostgreSQL).
 */
export async function writeComputedValues(trx: Executor, dialect: SqlDialect, table: string, fields: FieldMeta[], values: Map<string, Map<string, unknown>>): Promise<void> {
  if (values.size === 0 || fields.length === 0) return;
  const names = fields.map((_, i) => `v${i}`);
  const rows = [...values.entries()].map(([id, byField]) => {
    const cells = fields.map((field) => {
      const column = field.fieldType.column!;
      return sql`CAST(${dialect.encode(column, byField.get(field.id) ?? null)} AS ${sql.raw(dialect.columnType(column))})`;
    });
    return sql`(${sql.join([sql`${id}`, ...cells])})`;
  });
  const columns = sql.join([sql.id('id'), ...names.map((name) => sql.id(name))]);
  const assignments = fields.map((field, i) => sql`${sql.id(field.id)} = ${sql.ref(`v.${names[i]}`)}`);
  await sql`WITH v(${columns}) AS (VALUES ${sql.join(rows)}) UPDATE ${sql.table(table)} SET ${sql.join(assignments)} FROM v WHERE ${sql.ref(`${table}.id`)} = ${sql.ref('v.id')}`.execute(trx);
}
