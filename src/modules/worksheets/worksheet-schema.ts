import type { FieldMeta } from '../../fields/field-type.js';

/**
 * A worksheet with its parsed fields: what records and queries work from. Cached per process
 * and replaced whenever the structure changes.
 */
export interface WorksheetSchema {
  id: string;
  appId: string;
  name: string;
  alias: string;
  remark: string;
  /** The physical table holding the rows. */
  table: string;
  /** Every field, in form order. */
  fields: FieldMeta[];
  /** Fields by id and by alias. */
  byKey: Map<string, FieldMeta>;
  /** Sort indexes known to exist, so that each is asked for once per loaded schema. */
  ensuredIndexes: Set<string>;
}

/** The physical row table of a worksheet. Named by id, never by the user-visible name. */
export function rowTableName(worksheetId: string): string {
  return `ws_${worksheetId}`;
}

/** Index names are global per schema (PostgreSQL) and per database (SQLite): include the worksheet. */
export function uniqueIndexName(worksheetId: string, column: string): string {
  return `ux_${worksheetId}_${column}`;
}

export function sortIndexName(worksheetId: string, column: string): string {
  return `ix_${worksheetId}_${column.replace(/^_/, 's_')}`;
}

