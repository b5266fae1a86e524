import type { Kysely } from 'kysely';

/**
 * Read indexes may carry columns after their key (`included`): a filter's range columns that the
 * index can test without reading the row, so that finding a filtered, sorted page reads the index
 * alone. Existing indexes include nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('row_indexes')
    .addColumn('included', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
