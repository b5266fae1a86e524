import { sql, type Kysely } from 'kysely';

/**
 * The indexes built on worksheet row tables for reads (sorts and filters), one row each, so that
 * they can be listed, found again after a restart, and dropped with the columns they cover. The
 * single-column sort indexes of 0001 (fields flagged `indexed`) are carried over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('row_indexes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('row_indexes_by_worksheet').on('row_indexes').column('worksheet_id').execute();
  await sql`
    INSERT INTO row_indexes (name, worksheet_id, columns, created_at)
    SELECT 'ix_' || worksheet_id || '_' || id, worksheet_id, '["' || id || '"]', created_at FROM fields WHERE indexed = 1
  `.execute(db);
}
