import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';

export type ShareLinkRow = MetaSchema['share_links'];

export async function insertLink(db: Executor, row: ShareLinkRow): Promise<void> {
  await db.insertInto('share_links').values(row).execute();
}

export async function findByTokenHash(db: Executor, hash: string): Promise<ShareLinkRow | undefined> {
  return db.selectFrom('share_links').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

/** The links of one record, oldest first. */
export async function linksOfRow(db: Executor, worksheetId: string, rowId: string): Promise<ShareLinkRow[]> {
  return db.selectFrom('share_links').selectAll().where('worksheet_id', '=', worksheetId).where('row_id', '=', rowId).orderBy('created_at').orderBy('id').execute();
}

/** Marks a link of the record revoked (once: a second revoke keeps the first time); whether the link exists. */
export async function revokeLink(db: Executor, worksheetId: string, rowId: string, id: string, at: number): Promise<boolean> {
  const link = await db.selectFrom('share_links').select(['id', 'revoked_at']).where('id', '=', id).where('worksheet_id', '=', worksheetId).where('row_id', '=', rowId).executeTakeFirst();
  if (!link) return false;
  if (link.revoked_at === null) await db.updateTable('share_links').set({ revoked_at: at }).where('id', '=', id).execute();
  return true;
}
