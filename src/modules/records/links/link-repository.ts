import { sql } from 'kysely';
import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { ReadRow } from '../../../db/row-reader.js';
import type { ScopedRows } from '../../../access/index.js';
import { rows, type RowSource } from '../repository.js';
import { linkTableName } from '../../worksheets/worksheet-schema.js';
import type { LinkSide } from './link-side.js';

/** SQL over link tables (one per relation, created at run time, so through the untyped view of Kysely). */
const links = rows;

/** Every link of these records (to live and deleted records alike), by record, in link order. */
export async function linksOf(db: Executor, side: LinkSide, rowIds: string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>(rowIds.map((id) => [id, []]));
  if (rowIds.length === 0) return found;
  const rows = await links(db).selectFrom(side.table).select([`${side.own} as own`, `${side.other} as other`]).where(side.own, 'in', rowIds).orderBy('seq').execute();
  for (const row of rows) found.get(row.own as string)!.push(row.other as string);
  return found;
}

/** Removes one record's links to these records. */
export async function deleteLinks(db: Executor, side: LinkSide, ownId: string, otherIds: string[]): Promise<void> {
  if (otherIds.length === 0) return;
  await links(db).deleteFrom(side.table).where(side.own, '=', ownId).where(side.other, 'in', otherIds).execute();
}

/**
 * Removes the links other records have to these related records (when each related record may be
 * linked from one record only); returns the links taken: the record that lost one, and the related record.
 */
export async function takeLinksFromOthers(db: Executor, side: LinkSide, ownId: string, otherIds: string[]): Promise<Array<{ own: string; other: string }>> {
  if (otherIds.length === 0) return [];
  const taken = await links(db).deleteFrom(side.table).where(side.other, 'in', otherIds).where(side.own, '<>', ownId).returning([`${side.own} as own`, `${side.other} as other`]).execute();
  return taken.map((row) => ({ own: row.own as string, other: row.other as string }));
}

/** Adds links (own record, related record), in this order, in as few statements as the engine allows. */
export async function insertLinks(db: Executor, dialect: SqlDialect, side: LinkSide, pairs: Array<[string, string]>): Promise<void> {
  const perStatement = Math.floor(dialect.maxParameters / 2);
  for (let start = 0; start < pairs.length; start += perStatement) {
    const values = pairs.slice(start, start + perStatement).map(([own, other]) => ({ [side.own]: own, [side.other]: other }));
    await links(db).insertInto(side.table).values(values).execute();
  }
}

/** Removes every link of these records from a link table, on the given side (permanent deletion). */
export async function deleteLinksOfRecords(db: Executor, linkFieldId: string, column: 'source_id' | 'target_id', ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await links(db).deleteFrom(linkTableName(linkFieldId)).where(column, 'in', ids).execute();
}

/** One link as a page shows it: the record, the live related record and (when asked) its title. */
export interface ShownLink {
  own: string;
  other: string;
  title: unknown;
  /** When the related record was created (an auto-number title is composed from it). */
  created: number;
}

/**
 * The live related records of a page of records, in link order, with the related worksheet's title
 * column when one is given: one statement per relation field and page, never one per record.
 */
export async function shownLinks(source: RowSource, side: LinkSide, titleColumn: string | null, rowIds: string[]): Promise<ShownLink[]> {
  if (rowIds.length === 0) return [];
  const query = links(source.db)
    .selectFrom(`${side.table} as l`)
    .innerJoin(`${side.relatedTable} as r`, 'r.id', `l.${side.other}`)
    .select([`l.${side.own} as own`, `l.${side.other} as other`, titleColumn ? `r.${titleColumn} as title` : sql<null>`NULL`.as('title'), 'r._created_at as created'])
    .where(`l.${side.own}`, 'in', rowIds)
    .where('r._deleted_at', 'is', null)
    .orderBy('l.seq')
    .compile();
  return (await source.reader.read(query.sql, query.parameters)) as unknown as ShownLink[];
}

/**
 * A page of the live related records of one record that the predicate lets through, in link order,
 * with the given columns of the related worksheet. The related table keeps its own name (no alias),
 * so that a predicate compiled for that worksheet applies as it is.
 */
export async function relatedRows(source: RowSource, side: LinkSide, ownId: string, columns: string[], predicate: ScopedRows, limit: number, offset: number): Promise<ReadRow[]> {
  const query = relatedOf(source, side, ownId, predicate)
    .select(columns.map((column) => `${side.relatedTable}.${column}`))
    .orderBy('l.seq')
    .limit(limit)
    .offset(offset)
    .compile();
  return source.reader.read(query.sql, query.parameters);
}

/** How many live related records of one record the predicate lets through. */
export async function relatedCount(source: RowSource, side: LinkSide, ownId: string, predicate: ScopedRows): Promise<number> {
  const query = relatedOf(source, side, ownId, predicate)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .compile();
  return Number((await source.reader.read(query.sql, query.parameters))[0]?.total ?? 0);
}

/** The live related records of one record that the predicate lets through: what a page of them and their count both read. */
function relatedOf(source: RowSource, side: LinkSide, ownId: string, predicate: ScopedRows) {
  const query = links(source.db)
    .selectFrom(`${side.table} as l`)
    .innerJoin(side.relatedTable, `${side.relatedTable}.id`, `l.${side.other}`)
    .where(`l.${side.own}`, '=', ownId)
    .where(`${side.relatedTable}._deleted_at`, 'is', null);
  return predicate.everyRow ? query : query.where(predicate.expression);
}
