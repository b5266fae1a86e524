import type { Transporter } from 'nodemailer';

/** One message to send. */
export interface MailMessage {
  to: string[];
  cc?: string[];
  subject: string;
  /** The body as plain text, or as HTML (a plain-text part is then left to the reader's client). */
  text?: string;
  html?: string;
}

/** What the SMTP server said about a message it took. */
export interface MailReceipt {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

/**
 * A mail failure: `transient` when trying again later may pass (no connection, a timeout, an SMTP
 * 4xx answer), permanent otherwise (5xx: a refused sender or recipient, a refused login).
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** Sends mail through the configured SMTP server (`SMTP_URL`), from `MAIL_FROM`. */
export interface Mailer {
  send(message: MailMessage): Promise<MailReceipt>;
  close(): void;
}

/** Error codes of nodemailer and Node for failures that may pass. */
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

function mailError(error: unknown): MailError {
  const e = error as { message?: string; code?: string; responseCode?: number };
  const message = e.message ?? String(error);
  if (typeof e.responseCode === 'number') return new MailError(message, e.responseCode >= 400 && e.responseCode < 500);
  return new MailError(message, e.code !== undefined && TRANSIENT_CODES.has(e.code));
}

/**
 * The server's mailer, or null when `SMTP_URL` is not set. Connections are pooled; every wait is
 * bounded, so that a step sending mail ends well within its job's lease.
 * @example const mailer = createMailer('smtp://127.0.0.1:2525', 'Ops <ops@example.com>')
 */
export function createMailer(smtpUrl: string | null, from: string): Mailer | null {
  if (!smtpUrl) return null;
  // nodemailer (about 15 MB of memory) is loaded with the first mail, not at start: a server that
  // sends none, or sends it only now and then, keeps its idle footprint.
  let transport: Promise<Transporter> | null = null;
  const connected = () =>
    (transport ??= import('nodemailer').then((m) => m.default.createTransport({ url: smtpUrl, pool: true, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }, { from })));
  return {
    async send(message) {
      try {
        const info = await (await connected()).sendMail({ from, to: message.to, cc: message.cc, subject: message.subject, text: message.text, html: message.html });
        return { messageId: String(info.messageId), accepted: (info.accepted ?? []).map(String), rejected: (info.rejected ?? []).map(String) };
      } catch (error) {
        throw mailError(error);
      }
    },
    close: () => {
      void transport?.then((t) => t.close());
    },
  };
}
