import type { Kysely } from 'kysely';

/**
 * Business rules of worksheets (`business_rules`): a rule refuses any write after which a record
 * matches its `condition` (the filter language, JSON, with fields named by id) while it is
 * `enabled` (1/0). Rules are listed by `position`, then id; the record writer reads a worksheet's
 * enabled rules through the (worksheet_id, position) index on every write (records/rules/).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('business_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('business_rules_worksheet').on('business_rules').columns(['worksheet_id', 'position']).execute();
}
