import { CompiledQuery, sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { RowReader } from '../../db/row-reader.js';
import { cachedSqlText } from '../../db/sql-text-cache.js';

/**
 * Live-row counts and change counts of worksheets, kept in the same transaction as every write to
 * their records, so that an unfiltered list's `total` is a read of a few rows instead of a count
 * over the table, and the sum of the change counts is a version of the records (see
 * `filtered-totals.ts`). Each write goes to one of SHARDS rows picked at random; concurrent writers
 * on PostgreSQL then rarely wait for the same row lock, and the figures are sums over the shards.
 * The statements run on every write or list, so their SQL text is built once.
 */
const SHARDS = 8;

/** Records one write to a worksheet's records that changed the number of live ones by `liveDelta`. */
export async function noteRowChanges(db: Executor, dialect: SqlDialect, worksheetId: string, liveDelta: number): Promise<void> {
  const shard = Math.floor(Math.random() * SHARDS);
  const text = cachedSqlText(dialect, 'row-counts|note', () =>
    db
      .insertInto('row_counts')
      .values({ worksheet_id: worksheetId, shard, live: liveDelta, changes: 1 })
      .onConflict((oc) => oc.columns(['worksheet_id', 'shard']).doUpdateSet({ live: sql`row_counts.live + excluded.live`, changes: sql`row_counts.changes + 1` }))
      .compile().sql,
  );
  await db.executeQuery(CompiledQuery.raw(text, [worksheetId, shard, liveDelta, 1]));
}

/**
 * Records an insert of `count` records. Where the engine does not number records itself, it also
 * reserves their numbers, in the same statement, on the worksheet's shard 0 (SQLite serialises its
 * writers, so one shard costs nothing there), and returns the first; otherwise null.
 */
export async function noteInsertedRows(db: Executor, dialect: SqlDialect, worksheetId: string, count: number): Promise<number | null> {
  if (dialect.recordNumbers.assignedByEngine) {
    await noteRowChanges(db, dialect, worksheetId, count);
    return null;
  }
  const text = cachedSqlText(dialect, 'row-counts|insert-numbered', () =>
    db
      .insertInto('row_counts')
      .values({ worksheet_id: worksheetId, shard: 0, live: count, changes: 1, numbered: count })
      .onConflict((oc) =>
        oc.columns(['worksheet_id', 'shard']).doUpdateSet({
          live: sql`row_counts.live + excluded.live`,
          changes: sql`row_counts.changes + 1`,
          numbered: sql`row_counts.numbered + excluded.numbered`,
        }),
      )
      .returning('numbered')
      .compile().sql,
  );
  const result = await db.executeQuery<{ numbered: number }>(CompiledQuery.raw(text, [worksheetId, 0, count, 1, count]));
  return Number(result.rows[0].numbered) - count + 1;
}

/**
 * Worksheets' figures, summed over their shards and read outside any transaction: `live`, their live
 * records (an unfiltered total, asked for one worksheet), and `version`, how many writes their
 * records have had (it rises with every committed write to any of them, never falls).
 */
export async function rowCountSums(db: Executor, reader: RowReader, dialect: SqlDialect, worksheetIds: string[]): Promise<{ live: number; version: number }> {
  const text = cachedSqlText(dialect, `row-counts|sums|${worksheetIds.length}`, () =>
    db
      .selectFrom('row_counts')
      .select((eb) => [eb.fn.sum<number>('live').as('live'), eb.fn.sum<number>('changes').as('version')])
      .where('worksheet_id', 'in', worksheetIds)
      .compile().sql,
  );
  const [row] = await reader.read(text, worksheetIds);
  return { live: Number(row?.live ?? 0), version: Number(row?.version ?? 0) };
}
