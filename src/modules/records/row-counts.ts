import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';

/**
 * Live-row counts of worksheets, kept in the same transaction as every insert and delete, so
 * that an unfiltered list's `total` is a read of a few rows instead of a count over the table.
 * Each change goes to one of SHARDS rows picked at random; concurrent writers on PostgreSQL then
 * rarely wait for the same row lock, and the count is the sum of the shards.
 */
const SHARDS = 8;

export async function adjustRowCount(db: Executor, worksheetId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  const shard = Math.floor(Math.random() * SHARDS);
  await db
    .insertInto('row_counts')
    .values({ worksheet_id: worksheetId, shard, live: delta })
    .onConflict((oc) => oc.columns(['worksheet_id', 'shard']).doUpdateSet({ live: sql`row_counts.live + ${delta}` }))
    .execute();
}

export async function liveRowCount(db: Executor, worksheetId: string): Promise<number> {
  const row = await db
    .selectFrom('row_counts')
    .select((eb) => eb.fn.sum<number>('live').as('total'))
    .where('worksheet_id', '=', worksheetId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
