import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * Every record gets `_autoid`, its number in its worksheet (1, 2, 3… in creation order, never
 * reused), which the public rows show as `autoid`. Where the engine assigns the numbers (an identity
 * column) its sequence continues after the largest; elsewhere the last number given is kept in
 * `row_counts.numbered` of the worksheet's shard 0. Existing records are numbered by creation time
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
      // (`WHERE true`: SQLite reads an ON right after a SELECT's FROM as a join's.)
      await sql`
        INSERT INTO row_counts (worksheet_id, shard, live, changes, numbered)
        SELECT ${id}, 0, 0, 0, COALESCE(MAX(_autoid), 0) FROM ${table} WHERE true
        ON CONFLICT (worksheet_id, shard) DO UPDATE SET numbered = excluded.numbered
      `.execute(db);
    }
  }
}
