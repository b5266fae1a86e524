import type { Kysely } from 'kysely';

/**
 * Every write to a worksheet's records also counts one change on its row-count shard, so that the
 * sum of `changes` over a worksheet's shards is a version of its records: any committed insert,
 * update or delete raises it. Results computed from the records (a filtered total) are kept while
 * it stays the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('row_counts')
    .addColumn('changes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
