import type { Executor } from '../../db/connection.js';
import { onCommit } from '../../db/transaction.js';
import { PSEUDO_USERS } from '../../shared/actor.js';
import { newRowId } from '../../shared/ids.js';
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

type Listener = (created: readonly CreatedNotification[]) => void;
const listeners = new Set<Listener>();

/**
 * Hears every notification created in this process, once its transaction has committed: where mail
 * (SMTP_URL) can hook in. Returns the function that stops hearing.
 * @example const stop = onNotified((notes) => mailer.queue(notes))
 */
export function onNotified(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Creates in-app notifications in the caller's transaction, one per account (each once; pseudo-users
 * such as `user-api` have no inbox and are left out). Listeners hear of them after commit.
 * @example await notify(trx, { accountIds: [approverId], kind: 'todo', title: 'Expense: approve', body: 'Laptop', link: `/v3/app/workflow/instance/${runId}?workId=${workId}`, at: now })
 */
export async function notify(trx: Executor, note: Note): Promise<CreatedNotification[]> {
  const accounts = [...new Set(note.accountIds)].filter((id) => id !== '' && !PSEUDO_USERS.has(id));
  if (accounts.length === 0) return [];
  const created = accounts.map((accountId) => ({ id: newRowId(), accountId, appId: note.appId ?? null, kind: note.kind, title: note.title, body: note.body, link: note.link, createdAt: note.at }));
  await insertNotifications(trx, created);
  if (listeners.size > 0) onCommit(trx, () => listeners.forEach((listener) => listener(created)));
  return created;
}
