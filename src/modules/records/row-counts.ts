import { CompiledQuery, sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { cachedSqlText } from '../../db/sql-text-cache.js';

/**
 * Live-row counts of worksheets, kept in the same transaction as every insert and delete, so
 * that an unfiltered list's `total` is a read of a few rows instead of a count over the table.
 * Each change goes to one of SHARDS rows picked at random; concurrent writers on PostgreSQL then
 * rarely wait for the same row lock, and the count is the sum of the shards. Both statements run
 * on every write or list, so their SQL text is built once.
 */
const SHARDS = 8;

export async function adjustRowCount(db: Executor, dialect: SqlDialect, worksheetId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  const shard = Math.floor(Math.random() * SHARDS);
  const text = cachedSqlText(dialect, 'row-counts|adjust', () =>
    db
      .insertInto('row_counts')
      .values({ worksheet_id: worksheetId, shard, live: delta })
      .onConflict((oc) => oc.columns(['worksheet_id', 'shard']).doUpdateSet({ live: sql`row_counts.live + excluded.live` }))
      .compile().sql,
  );
  await db.executeQuery(CompiledQuery.raw(text, [worksheetId, shard, delta]));
}

export async function liveRowCount(db: Executor, dialect: SqlDialect, worksheetId: string): Promise<number> {
  const text = cachedSqlText(dialect, 'row-counts|total', () =>
    db
      .selectFrom('row_counts')
      .select((eb) => eb.fn.sum<number>('live').as('total'))
      .where('worksheet_id', '=', worksheetId)
      .compile().sql,
  );
  const result = await db.executeQuery<{ total: number | null }>(CompiledQuery.raw(text, [worksheetId]));
  return Number(result.rows[0]?.total ?? 0);
}
