import { forbidden } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import * as repository from './repository.js';

/** Most notifications one mark-read call names. */
export const MAX_READ_IDS = 1000;

/** The person whose notifications these are: the caller's; an app key has none (10005). */
function ownerOf(ctx: ServiceContext): string {
  if (ctx.actor.userId === null) throw forbidden(ctx.actor, 'notifications belong to a person: call with a personal access token, an OAuth grant or a session, not an app key');
  return ctx.actor.userId;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A page of the caller's notifications, newest first, with the total and the unread count. */
export async function listNotifications(ctx: ServiceContext, input: { pageIndex?: number; pageSize?: number; unreadOnly?: boolean }) {
  const accountId = ownerOf(ctx);
  const pageSize = input.pageSize ?? 20;
  const { rows, total, unread } = await repository.pageOf(ctx.db, accountId, input.unreadOnly === true, pageSize, ((input.pageIndex ?? 1) - 1) * pageSize);
  return {
    notifications: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      body: row.body,
      link: row.link,
      appId: row.app_id,
      read: row.read_at !== null,
      readAt: iso(row.read_at),
      createdAt: iso(row.created_at)!,
    })),
    total,
    unread,
  };
}

/** Marks the caller's notifications read: `ids`, or every one with `all: true` (10001 when neither is given). */
export async function markNotificationsRead(ctx: ServiceContext, input: { ids?: string[]; all?: boolean }) {
  const accountId = ownerOf(ctx);
  if (input.all !== true && input.ids === undefined) throw AppError.invalidParameters('ids or all is required: the notifications to mark read, or all: true');
  if (input.all !== true && input.ids!.length > MAX_READ_IDS) throw AppError.invalidParameters(`ids: at most ${MAX_READ_IDS} per call, got ${input.ids!.length}`);
  const updated = await repository.markRead(ctx.db, accountId, input.all === true ? null : input.ids!, ctx.now());
  return { updated, unread: await repository.unreadCount(ctx.db, accountId) };
}

/** The caller's notification choices, and whether this server mails notifications at all (SMTP_URL, NOTIFY_MAIL). */
export async function notificationSettings(ctx: ServiceContext) {
  const settings = await repository.settingsOf(ctx.db, ownerOf(ctx));
  return { ...settings, mailAvailable: ctx.notificationMail };
}

/** Changes the caller's notification choices: `mail` false stops the mail of their notifications (the in-app ones stay). */
export async function editNotificationSettings(ctx: ServiceContext, input: { mail?: boolean }) {
  const accountId = ownerOf(ctx);
  if (input.mail !== undefined) await repository.saveSettings(ctx.db, accountId, { mail: input.mail }, ctx.now());
  return notificationSettings(ctx);
}
