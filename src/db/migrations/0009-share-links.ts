import type { Kysely } from 'kysely';

/**
 * Share links of records (`share_links`): a read-only public view of one record. Only a SHA-256 of
 * the link's token is kept (looked up by it), so the table never holds a working link; the
 * password, when one is set, is a scrypt hash. `visible_fields` is a JSON list of field ids, or
 * null for every field the record shows. A revoked link keeps its row, with `revoked_at` set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('visible_fields', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('share_links_row').on('share_links').columns(['worksheet_id', 'row_id']).execute();
}
