import type { Kysely } from 'kysely';

/**
 * Signed-in sessions of the web pages (`sessions`) and failed sign-ins (`sign_in_failures`).
 *
 * A session row exists only once a person has signed in. `id` is the SHA-256 of the session id the
 * browser holds (a copy of this table does not let anyone in); `data` is the session as JSON;
 * `created_at` and `seen_at` decide the absolute and idle lifetimes; `account_id` (indexed) lets
 * a password change or a disabled person end every session of that person.
 *
 * `sign_in_failures` holds one row per failed sign-in and key (`email:<sha256 of the lowered email>`
 * or `ip:<address>`), so that every process counts the same attempts; rows older than the window
 * are removed as new ones are written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
  await db.schema.createIndex('sessions_seen').on('sessions').column('seen_at').execute();
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_key').on('sign_in_failures').columns(['key', 'at']).execute();
  await db.schema.createIndex('sign_in_failures_at').on('sign_in_failures').column('at').execute();
}
