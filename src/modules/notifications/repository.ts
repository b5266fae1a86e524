import type { Executor } from '../../db/connection.js';
import type { CreatedNotification } from './notify.js';

/** SQL of notifications. */

export async function insertNotifications(db: Executor, notes: readonly CreatedNotification[]): Promise<void> {
  await db
    .insertInto('notifications')
    .values(notes.map((n) => ({ id: n.id, account_id: n.accountId, app_id: n.appId, kind: n.kind, title: n.title, body: n.body, link: n.link, read_at: null, created_at: n.createdAt })))
    .execute();
}

function ofAccount(db: Executor, accountId: string, unreadOnly: boolean) {
  let query = db.selectFrom('notifications').where('account_id', '=', accountId);
  if (unreadOnly) query = query.where('read_at', 'is', null);
  return query;
}

/** A page of an account's notifications, newest first, with how many match and how many are unread. */
export async function pageOf(db: Executor, accountId: string, unreadOnly: boolean, limit: number, offset: number) {
  const [rows, total, unread] = await Promise.all([
    ofAccount(db, accountId, unreadOnly).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    ofAccount(db, accountId, unreadOnly).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ofAccount(db, accountId, true).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n), unread: Number(unread.n) };
}

/** Marks an account's notifications read (these ids, or all when `ids` is null); returns how many changed. */
export async function markRead(db: Executor, accountId: string, ids: readonly string[] | null, now: number): Promise<number> {
  if (ids !== null && ids.length === 0) return 0;
  let query = db.updateTable('notifications').set({ read_at: now }).where('account_id', '=', accountId).where('read_at', 'is', null);
  if (ids !== null) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function unreadCount(db: Executor, accountId: string): Promise<number> {
  const row = await ofAccount(db, accountId, true).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Those of these notifications that have not been mailed yet (the rest are gone, or mailed by an earlier try). */
export async function unmailed(db: Executor, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('notifications').select(['id', 'account_id', 'title', 'body', 'link']).where('id', 'in', ids).where('mailed_at', 'is', null).execute();
}

/** Records that a notification's mail went out. */
export async function markMailed(db: Executor, id: string, now: number): Promise<void> {
  await db.updateTable('notifications').set({ mailed_at: now }).where('id', '=', id).execute();
}

/** Which of these accounts turned their notification mail off. */
export async function mailTurnedOff(db: Executor, accountIds: readonly string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await db.selectFrom('notification_settings').select('account_id').where('account_id', 'in', accountIds).where('mail', '=', 0).execute();
  return new Set(rows.map((r) => r.account_id));
}

/** An account's notification choices (mail on when it never made one). */
export async function settingsOf(db: Executor, accountId: string): Promise<{ mail: boolean }> {
  const row = await db.selectFrom('notification_settings').select('mail').where('account_id', '=', accountId).executeTakeFirst();
  return { mail: row === undefined || Number(row.mail) === 1 };
}

/** Stores an account's notification choices. */
export async function saveSettings(db: Executor, accountId: string, settings: { mail: boolean }, now: number): Promise<void> {
  const mail = settings.mail ? 1 : 0;
  await db
    .insertInto('notification_settings')
    .values({ account_id: accountId, mail, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ mail, updated_at: now }))
    .execute();
}
