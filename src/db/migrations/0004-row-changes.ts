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
  // Where the engine does not number records itself (SQLite), shard 0 also keeps the last record
  // number given (see 0005), so that an insert counts and numbers in one statement.
  await db.schema
    .alterTable('row_counts')
    .addColumn('numbered', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
