import type { Kysely } from 'kysely';

/**
 * The OAuth 2.0 provider (`modules/oauth`).
 *
 * - `oauth_clients`: registered integrations of an organization. `client_id` is public;
 *   `secret_hash` is a SHA-256 of a random secret (null for a public client, which must use PKCE
 *   S256). `redirect_uris`, `scopes` and `allowed_ips` are JSON arrays (exact URIs, public scope
 *   names, addresses and CIDR ranges; an empty `allowed_ips` allows any address).
 * - `oauth_codes`: authorization codes, by SHA-256; single use (`used_at`), 60 seconds.
 * - `oauth_tokens`: access (`oat_`) and refresh (`ort_`) tokens, by SHA-256, one row per pair.
 *   Every pair issued from one consent shares `family_id`; `parent_id` is the pair whose refresh
 *   token was exchanged for it. A refresh token used twice revokes the whole family.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('allowed_ips', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('code_challenge_method', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createTable('oauth_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('access_hash', 'text', (c) => c.notNull().unique())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_hash', 'text', (c) => c.unique())
    .addColumn('refresh_expires_at', 'bigint')
    .addColumn('refresh_used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_tokens_family').on('oauth_tokens').column('family_id').execute();
}
