import type { Executor } from '../../db/connection.js';
import { PSEUDO_USERS } from '../../shared/actor.js';
import { newRowId } from '../../shared/ids.js';
import { queueNotificationMail } from './mail-job.js';
import { insertNotifications } from './repository.js';

/** A notification to create, for each of `accountIds`. */
export interface Note {
  accountIds: readonly string[];
  /** What it is about: todo, urge, cc, returned, deadline, mention… */
  kind: string;
  title: string;
  body: string;
  /** Where it leads: an API path, e.g. `/v3/app/workflow/instance/{id}?workId=…`. */
  link: string;
  appId?: string | null;
  /** Epoch ms. */
  at: number;
}

/** How notifications reach their people besides the in-app list. */
export interface Delivery {
  /** Also by mail: the server's `notificationMail` (`ServiceContext.notificationMail`), false when SMTP_URL is not set. */
  mail: boolean;
}

/** One notification as created. */
export interface CreatedNotification {
  id: string;
  accountId: string;
  appId: string | null;
  kind: string;
  title: string;
  body: string;
  link: string;
  createdAt: number;
}

/**
 * Creates in-app notifications in the caller's transaction, one per account (each once; pseudo-users
 * such as `user-api` have no inbox and are left out). With `delivery.mail`, their mail is queued in
 * the same transaction (one job for all of them, `mail-job.ts`): committed with them, it is sent
 * even if the process dies right after the commit; rolled back with them, it is never sent.
 * @example await notify(trx, { accountIds: [approverId], kind: 'todo', title: 'Expense: approve', body: 'Laptop', link: `/v3/app/workflow/instance/${runId}?workId=${workId}`, at: now }, { mail: ctx.notificationMail })
 */
export async function notify(trx: Executor, note: Note, delivery: Delivery): Promise<CreatedNotification[]> {
  const accounts = [...new Set(note.accountIds)].filter((id) => id !== '' && !PSEUDO_USERS.has(id));
  if (accounts.length === 0) return [];
  const created = accounts.map((accountId) => ({ id: newRowId(), accountId, appId: note.appId ?? null, kind: note.kind, title: note.title, body: note.body, link: note.link, createdAt: note.at }));
  await insertNotifications(trx, created);
  if (delivery.mail) await queueNotificationMail(trx, created.map((n) => n.id), note.at);
  return created;
}
