import type { Kysely } from 'kysely';

/**
 * App keys of the "custom" permission type (the public type 10): a JSON array of the worksheets the
 * key may reach, each with its rights (`[{id, read, add, edit, delete}]`); null: every worksheet (the
 * "all" and "read-only" types, as `read_only` says).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_keys').addColumn('worksheet_permissions', 'text').execute();
}
