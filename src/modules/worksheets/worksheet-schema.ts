import { createHash } from 'node:crypto';
import type { PlannedIndex } from '../../query/index.js';
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
  /** Whether changes to its records are written to the record log (on unless switched off). */
  recordLogs: boolean;
  /** Since when (epoch ms) changes have been logged without a break; 0 while they are not. */
  recordLogsSince: number;
  /** The earlier periods changes were logged, `[from, to]` (epoch ms). */
  recordLogPeriods: Array<[number, number]>;
  /** The physical table holding the rows. */
  table: string;
  /** Every field, in form order. */
  fields: FieldMeta[];
  /** Fields by id and by alias. */
  byKey: Map<string, FieldMeta>;
  /**
   * The read indexes (for sorts and filters) that exist, by `readIndexKey` of their columns, so that
   * each is asked for once per loaded schema.
   */
  readIndexes: Set<string>;
}

/** The physical row table of a worksheet. Named by id, never by the user-visible name. */
export function rowTableName(worksheetId: string): string {
  return `ws_${worksheetId}`;
}

/** The link table of a relation: named by the field that created it (the forward side). */
export function linkTableName(linkFieldId: string): string {
  return `lk_${linkFieldId}`;
}

/** Index names are global per schema (PostgreSQL) and per database (SQLite): include the worksheet. */
export function uniqueIndexName(worksheetId: string, column: string): string {
  return `ux_${worksheetId}_${column}`;
}

export function sortIndexName(worksheetId: string, column: string): string {
  return `ix_${worksheetId}_${column.replace(/^_/, 's_')}`;
}

/**
 * The columns of a read index, as the query planner chooses them: its key, in order (then `id`
 * for ties), and the included columns, which the index carries so that a filter can test them on
 * index entries without reading the row.
 * @example { key: [statusId, priceId], include: [quantityId] } // status = ? AND quantity > ? ORDER BY price
 */
export type ReadIndexColumns = PlannedIndex;

/** How a read index is known by its columns, in order: `a,b` or `a,b+c` with included columns. */
export function readIndexKey(columns: ReadIndexColumns): string {
  const key = columns.key.join(',');
  return columns.include.length === 0 ? key : `${key}+${columns.include.join(',')}`;
}

/**
 * The columns of a read index from its `readIndexKey`.
 * @example readIndexColumnsOf('a,b+c') // { key: ['a', 'b'], include: ['c'] }
 */
export function readIndexColumnsOf(key: string): ReadIndexColumns {
  const [ordered, carried] = key.split('+');
  return { key: ordered.split(','), include: carried ? carried.split(',') : [] };
}

/**
 * The name of a read index: a single key column without included ones keeps the sort index's name;
 * others get a hash of their key, as names are limited (63 bytes on PostgreSQL) and must be the
 * same in every process.
 */
export function readIndexName(worksheetId: string, columns: ReadIndexColumns): string {
  if (columns.key.length === 1 && columns.include.length === 0) return sortIndexName(worksheetId, columns.key[0]);
  return `ix_${worksheetId}_c${createHash('sha1').update(readIndexKey(columns)).digest('hex').slice(0, 12)}`;
}
