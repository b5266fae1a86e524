import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { SqlDialect } from '../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../fields/field-type.js';
import { PROCESS_COLUMNS, PROCESS_COLUMN_TYPES, type ProcessColumnKey } from '../../shared/process-fields.js';
import { readIndexName, rowTableName, sortIndexName, uniqueIndexName, type ReadIndexColumns } from './worksheet-schema.js';

/**
 * The DDL of worksheet row tables. It always runs inside the transaction that changes the
 * metadata, so that a failed change leaves neither half a table nor stale metadata.
 */

function columnSql(dialect: SqlDialect, field: FieldMeta) {
  const column = field.fieldType.column;
  return column ? sql`${sql.id(field.id)} ${sql.raw(dialect.columnType(column))}` : null;
}

export async function createRowTable(db: Executor, dialect: SqlDialect, worksheetId: string, fields: FieldMeta[]): Promise<void> {
  const table = rowTableName(worksheetId);
  const text = dialect.columnType('text');
  const time = dialect.columnType('timestamp');
  const columns = [
    sql`id ${sql.raw(text)} PRIMARY KEY`,
    sql`_created_by ${sql.raw(text)} NOT NULL`,
    sql`_owner ${sql.raw(text)} NOT NULL`,
    sql`_updated_by ${sql.raw(text)} NOT NULL`,
    sql`_created_at ${sql.raw(time)} NOT NULL`,
    sql`_updated_at ${sql.raw(time)} NOT NULL`,
    sql`_deleted_at ${sql.raw(time)}`,
    // Who moved the record to the recycle bin (null while it is live).
    sql`_deleted_by ${sql.raw(text)}`,
    // The record's number in its worksheet (`autoid` on the wire), assigned on insert.
    sql`_autoid ${sql.raw(dialect.recordNumbers.columnType)}`,
    // The process system fields (`_processName` …), kept by the workflow runner; empty outside a run.
    ...(Object.keys(PROCESS_COLUMNS) as ProcessColumnKey[]).map((key) => sql`${sql.id(PROCESS_COLUMNS[key])} ${sql.raw(dialect.columnType(PROCESS_COLUMN_TYPES[key]))}`),
    ...fields.map((f) => columnSql(dialect, f)).filter((c) => c !== null),
  ];
  await sql`CREATE TABLE ${sql.table(table)} (${sql.join(columns)})${sql.raw(dialect.rowTableSuffix)}`.execute(db);
  for (const field of fields) if (field.isUnique) await createUniqueIndex(db, worksheetId, field.id);
}

export async function dropRowTable(db: Executor, worksheetId: string): Promise<void> {
  await sql`DROP TABLE IF EXISTS ${sql.table(rowTableName(worksheetId))}`.execute(db);
}

export async function addColumn(db: Executor, dialect: SqlDialect, worksheetId: string, field: FieldMeta): Promise<void> {
  const column = columnSql(dialect, field);
  if (column) await sql`ALTER TABLE ${sql.table(rowTableName(worksheetId))} ADD COLUMN ${column}`.execute(db);
  if (field.isUnique) await createUniqueIndex(db, worksheetId, field.id);
}

export async function dropColumn(db: Executor, worksheetId: string, field: FieldMeta): Promise<void> {
  await dropUniqueIndex(db, worksheetId, field.id);
  await sql`DROP INDEX IF EXISTS ${sql.id(sortIndexName(worksheetId, field.id))}`.execute(db);
  if (field.fieldType.column) {
    await sql`ALTER TABLE ${sql.table(rowTableName(worksheetId))} DROP COLUMN ${sql.id(field.id)}`.execute(db);
  }
}

/** Unique among live rows: a deleted row in the recycle bin does not hold its value. */
export async function createUniqueIndex(db: Executor, worksheetId: string, column: string): Promise<void> {
  await sql`CREATE UNIQUE INDEX ${sql.id(uniqueIndexName(worksheetId, column))} ON ${sql.table(rowTableName(worksheetId))} (${sql.id(column)}) WHERE _deleted_at IS NULL`.execute(db);
}

export async function dropUniqueIndex(db: Executor, worksheetId: string, column: string): Promise<void> {
  await sql`DROP INDEX IF EXISTS ${sql.id(uniqueIndexName(worksheetId, column))}`.execute(db);
}

/**
 * A read index: the filter's equality columns and then the sort (or range) column, with `id` to
 * break ties so that pages are stable, then the included columns (range columns the filter tests on
 * the index entry) and `_deleted_at`, so that finding a page reads the index alone (a covering scan),
 * never the rows it skips or filters out. Built outside any transaction by the index builder,
 * concurrently where the engine can; the engine's statistics are refreshed after, so that its
 * planner knows which of several indexes serves a query best.
 */
export async function createReadIndex(db: Executor, dialect: SqlDialect, worksheetId: string, columns: ReadIndexColumns): Promise<void> {
  const nulls = sql.raw(dialect.indexNullsFirst);
  const concurrently = sql.raw(dialect.concurrentIndexBuild ? ' CONCURRENTLY' : '');
  const keyColumns = columns.key.map((column) => sql`${sql.id(column)}${nulls}`);
  const included = columns.include.map((column) => sql`${sql.id(column)}, `);
  const table = rowTableName(worksheetId);
  await sql`CREATE INDEX${concurrently} IF NOT EXISTS ${sql.id(readIndexName(worksheetId, columns))} ON ${sql.table(table)} (${sql.join(keyColumns)}, id, ${sql.join(included, sql``)}_deleted_at)`.execute(db);
  const analyze = dialect.analyzeTableSql(table);
  if (analyze) await sql.raw(analyze).execute(db);
}

export async function dropReadIndex(db: Executor, name: string): Promise<void> {
  await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
}
