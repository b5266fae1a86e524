import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import { linkTableName } from './worksheet-schema.js';

/**
 * A relation's link table: one row per link, unique per pair, with an index on each side, so that
 * reading a record's links is an index range whichever side it is read from. `seq` orders links as
 * they were made.
 */
export async function createLinkTable(db: Executor, dialect: SqlDialect, linkFieldId: string): Promise<void> {
  const table = linkTableName(linkFieldId);
  const text = sql.raw(dialect.columnType('text'));
  await sql`CREATE TABLE ${sql.table(table)} (seq ${sql.raw(dialect.linkSequenceColumn)}, source_id ${text} NOT NULL, target_id ${text} NOT NULL)`.execute(db);
  await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_s`)} ON ${sql.table(table)} (source_id, target_id)`.execute(db);
  await sql`CREATE INDEX ${sql.id(`${table}_t`)} ON ${sql.table(table)} (target_id, source_id)`.execute(db);
}

export async function dropLinkTable(db: Executor, linkFieldId: string): Promise<void> {
  await sql`DROP TABLE IF EXISTS ${sql.table(linkTableName(linkFieldId))}`.execute(db);
}
