import { Type } from '@sinclair/typebox';
import { MailError } from '../../mail/mailer.js';
import { defineNodeType, RetryLater, type NodeContext } from '../node-type.js';
import { recipientReferences, Recipient, Recipients, resolveRecipients } from '../recipients.js';
import { PLACEHOLDER, resolveValue } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A template's text; in an HTML body each value is escaped, so that a record's text cannot add markup. */
function fill(template: string, ctx: NodeContext, html: boolean): string {
  return template.replace(PLACEHOLDER, (whole) => {
    const text = String(resolveValue({ kind: 'template', value: whole }, ctx.values));
    return html ? escapeHtml(text) : text;
  });
}

async function addressesOf(recipients: readonly Recipient[], ctx: NodeContext): Promise<string[]> {
  const { accountIds, emails } = await resolveRecipients(recipients, ctx);
  return [...new Set([...emails, ...(await ctx.people.emailsOf(accountIds))])];
}

/**
 * Send email (public type 11): a message to people and addresses (`to`, `cc`: recipients), its
 * `subject` and `body` templates with `$alias-fieldId$` placeholders, the body HTML or plain text
 * (`bodyType`). Sent through `SMTP_URL` before the step commits: at least once (a crash between the
 * send and the commit sends it again). Without `SMTP_URL` the node fails, saying so; a failure that
 * may pass (no connection, an SMTP 4xx) is tried again with the job's backoff. Nobody to write to:
 * nothing is sent and the run goes on (`sent: false`).
 */
export const sendEmailNode = defineNodeType({
  type: 'send_email',
  code: 11,
  config: Type.Object({
    to: Recipients,
    cc: Type.Optional(Type.Array(Recipient, { maxItems: 100 })),
    subject: Type.String({ minLength: 1, maxLength: 998 }),
    body: Type.String({ maxLength: 100_000 }),
    bodyType: Type.Optional(Type.Union([Type.Literal('html'), Type.Literal('text')])),
  }),
  exits: ['next'],
  effects: 'external',
  check(config, at) {
    return checkReferences(
      [
        ...recipientReferences(config.to, 'to'),
        ...recipientReferences(config.cc ?? [], 'cc'),
        { ref: { kind: 'template', value: config.subject }, path: 'subject' },
        { ref: { kind: 'template', value: config.body }, path: 'body' },
      ],
      at,
    );
  },
  async run(config, ctx) {
    if (!ctx.mail) throw new Error('mail is not configured on this server: set SMTP_URL to send email');
    const to = await addressesOf(config.to, ctx);
    const cc = (await addressesOf(config.cc ?? [], ctx)).filter((address) => !to.includes(address));
    if (to.length === 0 && cc.length === 0) return { exit: 'next', output: { sent: false, to, cc } };
    const html = config.bodyType === 'html';
    // The subject is one line of text: a value's line breaks would start headers.
    const subject = fill(config.subject, ctx, false).replace(/[\r\n]+/g, ' ');
    const body = fill(config.body, ctx, html);
    try {
      const receipt = await ctx.mail.send({ to: to.length > 0 ? to : cc, cc: to.length > 0 ? cc : [], subject, ...(html ? { html: body } : { text: body }) });
      return { exit: 'next', output: { sent: true, messageId: receipt.messageId, to, cc, accepted: receipt.accepted } };
    } catch (error) {
      if (error instanceof MailError && error.transient && ctx.run.attempt < ctx.run.maxAttempts) throw new RetryLater(`sending mail failed, to be tried again: ${error.message}`);
      throw new Error(`sending mail failed: ${(error as Error).message}`, { cause: error });
    }
  },
});
