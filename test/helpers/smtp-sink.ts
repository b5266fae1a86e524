import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the sink took: its envelope recipients, the raw message, and its headers and text read back. */
export interface SunkMail {
  to: string[];
  raw: string;
  /** Header lines unfolded and decoded, by lower-case name (the last one when repeated). */
  headers: Map<string, string>;
  /** The body with quoted-printable undone (plain ASCII bodies, as the tests send). */
  text: string;
}

/**
 * A local SMTP server on 127.0.0.1 for tests of mail: it takes every message into `mailbox`, and
 * refuses a recipient when told to (an SMTP answer code, a number of times).
 * @example const sink = smtpSink(); beforeAll(() => sink.start()); afterAll(() => sink.close()); … env.SMTP_URL = sink.url()
 */
export interface SmtpSink {
  mailbox: SunkMail[];
  /** Refuses RCPT TO of `address` with `responseCode` (4xx: try later, 5xx: for good) the next `times` times. */
  refuse(address: string, responseCode: number, times?: number): void;
  /** `smtp://127.0.0.1:PORT` once started. */
  url(): string;
  start(): Promise<void>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): string {
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Undoes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as mail clients show a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    );
}

function parse(to: string[], raw: string): SunkMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map(head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), decodeHeader(line.slice(line.indexOf(':') + 1).trim())] as const));
  const body = raw.slice(split + 4);
  const text = /quoted-printable/i.test(headers.get('content-transfer-encoding') ?? '') ? decodeQuotedPrintable(body) : body;
  return { to, raw, headers, text: text.replace(/\r\n/g, '\n') };
}

export function smtpSink(): SmtpSink {
  const mailbox: SunkMail[] = [];
  const refusals = new Map<string, { code: number; left: number }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address);
      if (refusal && refusal.left > 0) {
        refusal.left -= 1;
        const words = refusal.code >= 500 ? 'no such mailbox' : 'mailbox busy, try later';
        return callback(Object.assign(new Error(words), { responseCode: refusal.code }));
      }
      return callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        mailbox.push(parse(session.envelope.rcptTo.map((r) => r.address), raw));
        callback();
      });
    },
  });
  return {
    mailbox,
    refuse: (address, responseCode, times = 1) => void refusals.set(address, { code: responseCode, left: times }),
    url: () => `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
