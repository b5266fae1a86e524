import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

/** SQL of discussions. */

export type DiscussionRow = MetaSchema['discussions'];

/** Where a record's discussions are. */
export interface RecordRef {
  worksheetId: string;
  rowId: string;
}

export async function insertDiscussion(db: Executor, row: DiscussionRow): Promise<void> {
  await db.insertInto('discussions').values(row).execute();
}

/** A discussion of this record, or undefined. */
export async function findDiscussion(db: Executor, record: RecordRef, id: string): Promise<DiscussionRow | undefined> {
  return db.selectFrom('discussions').selectAll().where('id', '=', id).where('worksheet_id', '=', record.worksheetId).where('row_id', '=', record.rowId).executeTakeFirst();
}

/** What a page of discussions is narrowed by: a condition on the message, and having files. */
export interface DiscussionFilter {
  message: Expression<SqlBool> | null;
  onlyWithAttachments: boolean;
}

function matching(db: Executor, record: RecordRef, filter: DiscussionFilter) {
  let query = db.selectFrom('discussions').where('worksheet_id', '=', record.worksheetId).where('row_id', '=', record.rowId);
  if (filter.message) query = query.where(filter.message);
  if (filter.onlyWithAttachments) query = query.where('attachments', '<>', '[]');
  return query;
}

/** A page of a record's discussions, newest first (the id breaks ties), and how many match in all. */
export async function listDiscussions(db: Executor, record: RecordRef, filter: DiscussionFilter, limit: number, offset: number): Promise<{ rows: DiscussionRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    matching(db, record, filter).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    matching(db, record, filter).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The files of discussions (by their ids), as `files` rows. */
export async function filesByIds(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('files').select(['id', 'name', 'size', 'mime_type']).where('id', 'in', ids).execute();
}

export async function deleteDiscussion(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('discussions').where('id', '=', id).execute();
}

/** Deletes the discussions of records (their files go with the records' files). */
export async function deleteDiscussionsOfRecords(db: Executor, worksheetId: string, rowIds: string[]): Promise<void> {
  if (rowIds.length === 0) return;
  await db.deleteFrom('discussions').where('worksheet_id', '=', worksheetId).where('row_id', 'in', rowIds).execute();
}

/** The message column, for conditions on it. */
export const MESSAGE = sql.ref('message');
