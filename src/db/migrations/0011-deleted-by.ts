import { sql, type Kysely } from 'kysely';

/**
 * Every row table gets `_deleted_by`: who moved a record to the recycle bin (null while it is
 * live), which the bin's list shows next to `_deleted_at`. Records already in the bin get null
 * (shown as nobody known).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const worksheets = await sql<{ id: string }>`SELECT id FROM worksheets`.execute(db);
  for (const { id } of worksheets.rows) await sql`ALTER TABLE ${sql.table(`ws_${id}`)} ADD COLUMN _deleted_by TEXT`.execute(db);
}
