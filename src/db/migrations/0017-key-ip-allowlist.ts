import type { Kysely } from 'kysely';

/** App keys may be restricted to addresses: a JSON array of IPs and CIDR ranges; null lets any address in. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_keys').addColumn('allowed_ips', 'text').execute();
}
