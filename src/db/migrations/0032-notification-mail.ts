import type { Kysely } from 'kysely';

/**
 * Mail for notifications (`modules/notifications`).
 *
 * `notifications.mailed_at`: when the notification's mail was handed to the SMTP server (null: not
 * mailed, or not yet). The mail job sets it right after each send, so that a job tried again after a
 * failure for one recipient does not write to the others twice.
 * `notification_settings`: a person's choices about their notifications, one row once they made
 * one; `mail` 0 turns their notification mail off (no row: mailed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('mailed_at', 'bigint').execute();
  await db.schema
    .createTable('notification_settings')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
    .addColumn('mail', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
