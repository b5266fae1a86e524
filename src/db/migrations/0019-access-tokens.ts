import type { Kysely } from 'kysely';

/**
 * Personal access tokens (`access_tokens`): a person's credential for scripts. Only a SHA-256 of
 * the token is kept (`token_hash`, unique: the one lookup of every request); `token_hint` is its
 * recognisable start, shown in lists. `scopes` is a JSON array of public scope names;
 * `organization_ids` and `app_ids` JSON arrays narrow it to listed organizations and applications
 * (null: all of the person's, present and future). `expires_at` null: it never expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('organization_ids', 'text')
    .addColumn('app_ids', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('access_tokens_account').on('access_tokens').columns(['account_id', 'created_at']).execute();
}
