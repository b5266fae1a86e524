import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { approveStep, block, expenseSheet, notificationsOf, onlyRun, publishFlow, user } from '../helpers/approval-fixtures.js';
import { capturedLog } from '../helpers/captured-log.js';
import { giveRole, personWithToken, type TokenPerson } from '../helpers/people.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';
import { smtpSink } from '../helpers/smtp-sink.js';
import { notify } from '../../src/modules/notifications/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const PUBLIC_URL = 'https://tabularium.example.com';
const MAIL_JOB = 'notifications.mail';
let now = NOW;

const smtp = smtpSink();
const log = capturedLog();
const env: Record<string, string> = { WORKERS: '0', PUBLIC_URL, MAIL_FROM: 'Tabularium <notify@example.com>' };
const noSmtp: Record<string, string> = { WORKERS: '0' };
const mailOff: Record<string, string> = { WORKERS: '0', NOTIFY_MAIL: 'false' };
beforeAll(async () => {
  await smtp.start();
  env.SMTP_URL = smtp.url();
  mailOff.SMTP_URL = smtp.url();
});
afterAll(() => smtp.close());

const emailOf = async (ctx: ApiContext, accountId: string) => (await ctx.database.db.selectFrom('accounts').select('email').where('id', '=', accountId).executeTakeFirstOrThrow()).email;
const mailJobs = (ctx: ApiContext) => ctx.database.db.selectFrom('background_jobs').select(['kind', 'payload', 'status', 'attempts', 'run_at', 'last_error']).where('kind', '=', MAIL_JOB).execute();
const mailedTo = (address: string) => smtp.mailbox.filter((mail) => mail.to.includes(address));

/** Posts a discussion on a new record of `sheet` mentioning these people (in this order): one `notify` call for all of them. */
async function mention(ctx: ApiContext, sheet: Sheet, accountIds: string[], message = 'please have a look'): Promise<string> {
  const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'Invoice 7' }]);
  const posted = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/${rowId}/discussions`, { message, mentions: accountIds });
  expect(posted.body.error_msg).toBe('');
  return rowId;
}

const mailedAt = async (ctx: ApiContext, accountId: string) => (await notificationsOf(ctx, accountId)).map((n) => (n.mailed_at === null ? null : Number(n.mailed_at)));

describeApi(
  'notification mail through SMTP_URL: queued with the notifications, one mail per person, retried, refused, turned off',
  (ctx) => {
    let ann: TokenPerson;
    let ben: TokenPerson;
    let annEmail: string;
    let benEmail: string;
    let sheet: Sheet;

    beforeAll(async () => {
      ann = await personWithToken(ctx, 'Ann', NOW);
      ben = await personWithToken(ctx, 'Ben', NOW);
      [annEmail, benEmail] = [await emailOf(ctx, ann.id), await emailOf(ctx, ben.id)];
      await giveRole(ctx, 'Staff', { permissionScope: 80 }, [ann.id]);
      sheet = await makeSheet(ctx, 'Invoices', [{ name: 'Title', alias: 'title', type: '2', isTitle: true, required: true }]);
    });
    beforeEach(async () => {
      smtp.mailbox.length = 0;
      now = NOW;
      await ctx.database.db.deleteFrom('notifications').execute();
      await ctx.database.db.deleteFrom('background_jobs').where('kind', '=', MAIL_JOB).execute();
    });

    it('mails a to-do notification to its approver: the title as subject, the body and an absolute link, from MAIL_FROM', async () => {
      const expenses = await expenseSheet(ctx, 'Expenses');
      const workflowId = await publishFlow(ctx, expenses, [block(), approveStep('managers', { approvers: [user(ben)], mode: 'any' })], NOW);
      const created = await ctx.call('POST', `/v3/app/worksheets/${expenses.id}/rows`, { fields: [{ id: 'title', value: 'Laptop' }] }, ann.headers);
      expect(created.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect((await onlyRun(ctx, workflowId)).status).toBe('waiting');

      const [todo] = await notificationsOf(ctx, ben.id);
      expect([todo.kind, todo.body, Number(todo.mailed_at)]).toEqual(['todo', 'Laptop', NOW]);
      expect(smtp.mailbox.map((mail) => mail.to)).toEqual([[benEmail]]);
      const [mail] = smtp.mailbox;
      expect(mail.headers.get('subject')).toBe(todo.title);
      expect(mail.headers.get('from')).toBe('Tabularium <notify@example.com>');
      expect(mail.headers.get('content-type')).toMatch(/^text\/plain/);
      const [text, footer] = mail.text.split('\n\n-- \n');
      expect(text).toBe(`Laptop\n\n${PUBLIC_URL}${todo.link}`);
      expect(todo.link).toMatch(/^\/v3\/app\/workflow\/instance\/.+\?workId=.+$/);
      expect(footer).toContain('PATCH /v3/notifications/settings');
      expect(await mailJobs(ctx)).toEqual([]);
    });

    it('queues one job per notify call, in its transaction, and sends one mail per person when the job runs', async () => {
      await mention(ctx, sheet, [ann.id, ben.id]);
      // Committed with the notifications, nothing sent yet: the job sends.
      const jobs = await mailJobs(ctx);
      expect(jobs.map((job) => [job.status, Number(job.run_at)])).toEqual([['queued', NOW]]);
      const ids = [...(await notificationsOf(ctx, ann.id)), ...(await notificationsOf(ctx, ben.id))].map((n) => n.id);
      expect(JSON.parse(jobs[0].payload)).toEqual({ ids });
      expect(smtp.mailbox).toEqual([]);

      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect(smtp.mailbox.map((mail) => mail.to)).toEqual([[annEmail], [benEmail]]);
      expect(smtp.mailbox.map((mail) => mail.headers.get('subject'))).toEqual(['You were mentioned in a discussion of "Invoices"', 'You were mentioned in a discussion of "Invoices"']);
      expect(smtp.mailbox[0].text).toContain(`please have a look\n\n${PUBLIC_URL}/v3/app/worksheets/${sheet.id}/rows/`);
      expect(await mailJobs(ctx)).toEqual([]);
    });

    it('tries again with backoff when the SMTP server refuses for now, without mailing twice whom it already reached', async () => {
      smtp.refuse(benEmail, 451);
      await mention(ctx, sheet, [ann.id, ben.id]);
      await ctx.app.jobs.runUntilIdle();
      expect(smtp.mailbox.map((mail) => mail.to)).toEqual([[annEmail]]);
      const [waiting] = await mailJobs(ctx);
      expect([waiting.status, Number(waiting.attempts), Number(waiting.run_at)]).toEqual(['queued', 1, NOW + 1000]);
      expect(waiting.last_error).toContain('451');
      expect([await mailedAt(ctx, ann.id), await mailedAt(ctx, ben.id)]).toEqual([[NOW], [null]]);

      now = NOW + 1000;
      await ctx.app.jobs.runUntilIdle();
      expect(smtp.mailbox.map((mail) => mail.to)).toEqual([[annEmail], [benEmail]]);
      expect([await mailedAt(ctx, ann.id), await mailedAt(ctx, ben.id)]).toEqual([[NOW], [NOW + 1000]]);
      expect(await mailJobs(ctx)).toEqual([]);
    });

    it('fails the job at once, logged, when the SMTP server refuses a recipient for good; the others are mailed', async () => {
      smtp.refuse(annEmail, 550);
      await mention(ctx, sheet, [ann.id, ben.id]);
      await ctx.app.jobs.runUntilIdle();
      expect(smtp.mailbox.map((mail) => mail.to)).toEqual([[benEmail]]);
      const [failed] = await mailJobs(ctx);
      expect([failed.status, Number(failed.attempts)]).toEqual(['failed', 1]);
      expect(failed.last_error!.startsWith(`the SMTP server refused notification mail for good: ${annEmail}: `)).toBe(true);
      expect(failed.last_error).toContain('550');
      expect(log.text()).toContain('the SMTP server refused a notification mail for good');
      expect(log.text()).toContain('background job failed for good');
    });

    it('leaves out a person who turned their notification mail off (PATCH /v3/notifications/settings), keeping the in-app notification', async () => {
      const settings = '/v3/notifications/settings';
      expect((await ctx.call('GET', settings, undefined, ben.headers)).body.data).toEqual({ mail: true, mailAvailable: true });
      const off = await ctx.call('PATCH', settings, { mail: 'false' }, ben.headers);
      expect([off.status, off.body.data]).toEqual([200, { mail: false, mailAvailable: true }]);
      expect((await ctx.call('GET', settings, undefined, ben.headers)).body.data).toEqual({ mail: false, mailAvailable: true });
      // Another person's choice is their own.
      expect((await ctx.call('GET', settings, undefined, ann.headers)).body.data).toEqual({ mail: true, mailAvailable: true });

      await mention(ctx, sheet, [ann.id, ben.id]);
      await ctx.app.jobs.runUntilIdle();
      expect(smtp.mailbox.map((mail) => mail.to)).toEqual([[annEmail]]);
      expect(await mailedAt(ctx, ben.id)).toEqual([null]);

      expect((await ctx.call('PATCH', settings, { mail: true }, ben.headers)).body.data).toEqual({ mail: true, mailAvailable: true });
      await mention(ctx, sheet, [ben.id]);
      await ctx.app.jobs.runUntilIdle();
      expect(mailedTo(benEmail)).toHaveLength(1);
    });

    it('refuses the settings to an app key (10005) and a value that is not a boolean (10001 naming mail)', async () => {
      const byKey = await ctx.call('GET', '/v3/notifications/settings');
      expect([byKey.status, byKey.body.error_code]).toEqual([403, 10005]);
      const bad = await ctx.call('PATCH', '/v3/notifications/settings', { mail: 'sometimes' }, ann.headers);
      expect([bad.status, bad.body.error_code]).toEqual([400, 10001]);
      expect(bad.body.error_msg).toContain('mail');
    });
  },
  env,
  { clock: () => now, logger: { level: 'warn', stream: log.stream } },
);

for (const [title, quiet, leftover] of [
  ['without SMTP_URL', noSmtp, 'it fails at once, saying SMTP_URL is not set'],
  ['with NOTIFY_MAIL=false (SMTP_URL kept for send_email nodes)', mailOff, 'it is still sent'],
] as const) {
  describeApi(
    `notifications ${title}: stored in the inbox, no mail job queued, no mail sent`,
    (ctx) => {
      it('queues nothing for a notification and says mail is not available', async () => {
        smtp.mailbox.length = 0;
        const ann = await personWithToken(ctx, 'Ann', NOW);
        const sheet = await makeSheet(ctx, 'Invoices', [{ name: 'Title', alias: 'title', type: '2', isTitle: true, required: true }]);
        await mention(ctx, sheet, [ann.id]);
        expect((await notificationsOf(ctx, ann.id)).map((n) => n.kind)).toEqual(['mention']);
        expect(await ctx.database.db.selectFrom('background_jobs').select('kind').execute()).toEqual([]);
        expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
        expect(smtp.mailbox).toEqual([]);
        expect((await ctx.call('GET', '/v3/notifications/settings', undefined, ann.headers)).body.data).toEqual({ mail: true, mailAvailable: false });
      });

      it(`runs a mail job queued before the setting changed: ${leftover}`, async () => {
        smtp.mailbox.length = 0;
        const [note] = await notify(ctx.database.db, { accountIds: [ctx.setup.owner.accountId], kind: 'notice', title: 'Queued earlier', body: '', link: '', at: Date.now() }, { mail: true });
        await ctx.app.jobs.runUntilIdle();
        const jobs = await ctx.database.db.selectFrom('background_jobs').select(['status', 'last_error']).execute();
        const mailed = smtp.mailbox.map((mail) => mail.headers.get('subject'));
        const stored = await ctx.database.db.selectFrom('notifications').select('mailed_at').where('id', '=', note.id).executeTakeFirstOrThrow();
        expect({ jobs, mailed, mailedAt: stored.mailed_at !== null }).toEqual(
          'SMTP_URL' in quiet
            ? { jobs: [], mailed: ['Queued earlier'], mailedAt: true }
            : { jobs: [{ status: 'failed', last_error: 'SMTP_URL is not set in this process: notification mail cannot be sent' }], mailed: [], mailedAt: false },
        );
      });
    },
    quiet,
    // The queue must hold no job at all here: the sweeps' jobs are left out.
    { sweeps: false },
  );
}
