import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * The record log: one row per change of one record (create, update, delete, restore), written in
 * the change's transaction. `seq` orders the entries (newest first on the wire) and is the cursor
 * (`lastMark`); the index serves a record's entries newest first.
 * `changes` holds the per-field entries as JSON (stored values, rendered for people when read).
 * Creates write no entry: a record's create entry is implied by the record itself while the log
 * was on when it was made (`records/logs/log-creation.ts`). Worksheets get `record_logs`: 0 when
 * their changes are not logged, otherwise since when they have been, without a break (epoch ms;
 * now for the worksheets that exist: the changes of their records so far were never logged), and
 * `record_log_periods`, the earlier periods it was on (JSON `[[from, to], …]`).
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await sql`
    CREATE TABLE record_logs (
      seq ${sql.raw(dialect.linkSequenceColumn)},
      worksheet_id TEXT NOT NULL,
      row_id TEXT NOT NULL,
      action INTEGER NOT NULL,
      source INTEGER NOT NULL,
      operator_id TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      changes TEXT NOT NULL
    )
  `.execute(db);
  // Record ids are unique across worksheets: the shortest key that finds a record's entries in order
  // (a record's entries are spread over the index, so every byte of key costs writes pages).
  await sql`CREATE INDEX record_logs_row ON record_logs (row_id, seq)`.execute(db);
  await sql`ALTER TABLE worksheets ADD COLUMN record_logs BIGINT NOT NULL DEFAULT 1`.execute(db);
  await sql`UPDATE worksheets SET record_logs = ${Date.now()}`.execute(db);
  await sql`ALTER TABLE worksheets ADD COLUMN record_log_periods TEXT NOT NULL DEFAULT '[]'`.execute(db);
}
