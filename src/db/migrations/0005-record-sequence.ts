import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * Every record gets `_autoid`, its number in its worksheet (1, 2, 3… in creation order, never
 * reused), which the public rows show as `autoid`. Where the engine assigns the numbers (an identity
 * column) its sequence continues after the largest; elsewhere the counter is the row
 * `autoid:<worksheet id>` of `auto_number_counters`, beside the auto-number fields' counters. Existing records are numbered by creation time
 * (then id), and each worksheet's counter continues from its last number.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const worksheets = await sql<{ id: string }>`SELECT id FROM worksheets`.execute(db);
  for (const { id } of worksheets.rows) {
    const table = sql.table(`ws_${id}`);
    await sql`ALTER TABLE ${table} ADD COLUMN _autoid ${sql.raw(dialect.recordNumbers.columnType)}`.execute(db);
    await sql`
      UPDATE ${table} SET _autoid = numbered.n
      FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY _created_at, id) AS n FROM ${table}) AS numbered
      WHERE ${table}.id = numbered.id
    `.execute(db);
    const continueAfterLargest = dialect.recordNumbers.continueAfterLargestSql(`ws_${id}`);
    if (continueAfterLargest) {
      await sql.raw(continueAfterLargest).execute(db);
    } else {
      await sql`
        INSERT INTO auto_number_counters (field_id, last_value)
        SELECT ${`autoid:${id}`}, COALESCE(MAX(_autoid), 0) FROM ${table}
      `.execute(db);
    }
  }
}
