import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/connection.js';
import { inTransaction, onCommit } from '../../db/transaction.js';
import { announceJobs, enqueueJobs, PermanentJobFailure, type ClaimedJob, type JobHandler, type Lease } from '../../jobs/index.js';
import { MailError, type Mailer } from '../../mail/mailer.js';
import { activeAccountEmails } from '../people/index.js';
import { notificationMail } from './mail-message.js';
import * as repository from './repository.js';

/** The job that mails the notifications of one `notify` call. */
export const NOTIFICATION_MAIL_JOB = 'notifications.mail';

/** Tries of a mail job: with the queue's backoff (1 s, 2 s … 5 min) about 18 minutes of SMTP trouble before it fails. */
const MAIL_ATTEMPTS = 12;

interface MailJobPayload {
  /** The notifications to mail, one message each. */
  ids: string[];
}

/**
 * Queues the mail of these notifications in the transaction that created them (the outbox of house
 * rule 6), and nudges this process's workers once it commits.
 */
export async function queueNotificationMail(trx: Executor, ids: string[], now: number): Promise<void> {
  const payload: MailJobPayload = { ids };
  await enqueueJobs(trx, [{ kind: NOTIFICATION_MAIL_JOB, payload, maxAttempts: MAIL_ATTEMPTS }], now);
  onCommit(trx, announceJobs);
}

export interface NotificationMailDeps {
  db: Executor;
  /** Null when this process has no SMTP_URL. */
  mailer: Mailer | null;
  /** PUBLIC_URL: links in the mail are absolute. */
  publicUrl: string;
  clock: () => number;
  log: FastifyBaseLogger;
}

/**
 * Mails each notification of the job to its person, one message each, unless they have no active
 * account with an email address or turned their notification mail off (both read when the mail is
 * sent). Each sent mail is recorded (`mailed_at`) at once, fenced on the job: a try after a failure
 * writes only to those not mailed yet. A failure that may pass (no connection, an SMTP 4xx) tries the
 * job again with the queue's backoff; a recipient refused for good (5xx) is logged and, once the
 * others are mailed, fails the job at once (`PermanentJobFailure`, its error kept on the job's row).
 */
async function mailNotifications(deps: NotificationMailDeps, job: ClaimedJob, lease: Lease): Promise<void> {
  const { mailer, db, log } = deps;
  if (!mailer) throw new PermanentJobFailure('SMTP_URL is not set in this process: notification mail cannot be sent');
  const { ids } = job.payload as MailJobPayload;
  // In the order `notify` was given its people.
  const order = new Map(ids.map((id, index) => [id, index]));
  const pending = (await repository.unmailed(db, ids)).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const accountIds = [...new Set(pending.map((note) => note.account_id))];
  const [emails, turnedOff] = await Promise.all([activeAccountEmails(db, accountIds), repository.mailTurnedOff(db, accountIds)]);
  const refused: string[] = [];
  for (const note of pending) {
    const address = emails.get(note.account_id);
    if (address === undefined || turnedOff.has(note.account_id)) continue;
    try {
      await mailer.send({ to: [address], ...notificationMail(note, deps.publicUrl) });
    } catch (error) {
      if (!(error instanceof MailError) || error.transient) throw error;
      log.error({ err: error, jobId: job.id, notificationId: note.id }, 'the SMTP server refused a notification mail for good');
      refused.push(`${address}: ${error.message}`);
      continue;
    }
    await inTransaction(db, async (trx) => {
      await lease.fence(trx);
      await repository.markMailed(trx, note.id, deps.clock());
    });
  }
  if (refused.length > 0) throw new PermanentJobFailure(`the SMTP server refused notification mail for good: ${refused.join('; ')}`);
}

/** The job handler of notification mail (registered with the server's job worker, `app.ts`). */
export function notificationMailHandler(deps: NotificationMailDeps): JobHandler {
  return { kind: NOTIFICATION_MAIL_JOB, run: (job, lease) => mailNotifications(deps, job, lease) };
}
