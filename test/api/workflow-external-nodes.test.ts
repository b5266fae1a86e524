import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { smtpSink } from '../helpers/smtp-sink.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';
import { node, publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { RUN_JOB, TriggerType } from '../../src/workflow/index.js';

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);
const START = 'start_x1';
let now = NOW;

const field = (fieldId: string) => ({ kind: 'field' as const, node: START, fieldId });
const onCreate = (sheet: Sheet) => ({ type: TriggerType.worksheet, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, event: 'create' } });

/** Mail the SMTP sink took. */
const smtp = smtpSink();
const mailbox = smtp.mailbox;

/** Requests the HTTP sink took; its answers by path. */
const requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
let busyOnce = true;
const http: Server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    if (request.url?.startsWith('/busy') && busyOnce) {
      busyOnce = false;
      response.writeHead(503).end('busy');
      return;
    }
    if (request.url?.startsWith('/missing')) {
      response.writeHead(404).end('nope');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id: 'ext-42', echo: body ? (JSON.parse(body) as unknown) : null } }));
  });
});

const env: Record<string, string> = { WORKERS: '0', HTTP_REQUEST_PRIVATE: 'true', MAIL_FROM: 'Flows <flows@example.com>' };
let httpBase = '';

beforeAll(async () => {
  await smtp.start();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  env.SMTP_URL = smtp.url();
  httpBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await smtp.close();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

describeApi(
  'workflow node types with external effects: send_email through SMTP, http_request',
  (ctx) => {
    let sheet: Sheet;
    // Each test has a worksheet of its own: only its workflows listen to it.
    beforeEach(async () => {
      sheet = await makeSheet(ctx, 'Tickets', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Owner', alias: 'owner', type: '26', subType: 0 },
        { name: 'Result', alias: 'result', type: '2' },
      ]);
    });

    it('mails a member of a field and an address through SMTP_URL, from MAIL_FROM, the HTML body escaped', async () => {
      mailbox.length = 0;
      const flow = await publishDirect(
        ctx,
        onCreate(sheet),
        [node('mail', 'send_email', { to: [{ kind: 'value', value: field(sheet.field.owner) }], cc: [{ kind: 'email', address: 'audit@example.com' }], subject: 'Ticket $start_x1-' + sheet.field.title + '$', body: '<p>New: $start_x1-' + sheet.field.title + '$</p>', bodyType: 'html' }, START)],
        NOW,
      );
      await createRecord(ctx, sheet, [{ id: 'title', value: 'Printer <on fire>' }, { id: 'owner', value: [ctx.setup.owner.accountId] }]);
      await ctx.app.jobs.runUntilIdle();
      const [run] = await runsOf(ctx, flow);
      expect([run.status, run.error]).toEqual(['passed', null]);
      expect(mailbox).toHaveLength(1);
      expect(mailbox[0].to).toEqual([ctx.setup.owner.email, 'audit@example.com']);
      const raw = mailbox[0].raw.replace(/=\r\n/g, '');
      expect(raw).toMatch(/^From: Flows <flows@example\.com>$/m);
      expect(raw).toMatch(new RegExp(`^To: ${ctx.setup.owner.email.replace(/[.+]/g, '\\$&')}$`, 'm'));
      expect(raw).toMatch(/^Cc: audit@example\.com$/m);
      expect(raw).toMatch(/^Subject: Ticket Printer <on fire>$/m);
      expect(raw).toMatch(/^Content-Type: text\/html/m);
      expect(raw).toContain('<p>New: Printer &lt;on fire&gt;</p>');
      expect(JSON.parse(run.steps[1].output!)).toMatchObject({ sent: true, to: [ctx.setup.owner.email], cc: ['audit@example.com'] });
    });

    it('tries again, with backoff, a message the SMTP server refused for now', async () => {
      mailbox.length = 0;
      // Refused once with a 4xx: the node tries again with the job's backoff.
      smtp.refuse('flaky@example.com', 451);
      const flow = await publishDirect(ctx, onCreate(sheet), [node('mail', 'send_email', { to: [{ kind: 'email', address: 'flaky@example.com' }], subject: 'Hi', body: 'plain $start_x1-' + sheet.field.title + '$' }, START)], NOW);
      await createRecord(ctx, sheet, [{ id: 'title', value: 'Flaky' }]);
      await ctx.app.jobs.runUntilIdle();
      // Nothing committed yet: the trigger's step is kept for the commit of the mail's.
      let [run] = await runsOf(ctx, flow);
      expect(run.status).toBe('queued');
      const [job] = await ctx.database.db.selectFrom('background_jobs').select(['run_at', 'attempts', 'last_error']).where('kind', '=', RUN_JOB).execute();
      expect([Number(job.run_at), job.last_error]).toEqual([NOW + 1000, expect.stringContaining('451')]);
      now = NOW + 1000;
      await ctx.app.jobs.runUntilIdle();
      now = NOW;
      [run] = await runsOf(ctx, flow);
      expect(run.status).toBe('passed');
      expect(mailbox.map((m) => m.to)).toEqual([['flaky@example.com']]);
      expect(mailbox[0].raw).toMatch(/^Content-Type: text\/plain/m);
      expect(mailbox[0].raw).toContain('plain Flaky');
    });

    it('sends an HTTP request built from templates and a JSON body of references, and maps the answer into its output', async () => {
      requests.length = 0;
      const flow = await publishDirect(
        ctx,
        onCreate(sheet),
        [
          node('call', 'http_request', { method: 'POST', url: `${httpBase}/hook?t=$start_x1-${sheet.field.title}$`, headers: [{ name: 'X-Token', value: 'secret-1' }], json: { title: field(sheet.field.title), owner: field(sheet.field.owner) }, responseMapping: [{ key: 'externalId', path: 'data.id' }] }, START),
          node('mark', 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.result, value: { kind: 'template', value: '$call-externalId$ $call-status$' } }] }, 'call'),
        ],
        NOW,
      );
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'a&b c' }]);
      await ctx.app.jobs.runUntilIdle();
      expect(valueOf(await readRecord(ctx, sheet, id), sheet.field.result)).toBe('ext-42 200');
      expect(requests.map((r) => [r.method, r.url, r.headers['x-token'], r.headers['content-type'], JSON.parse(r.body)])).toEqual([['POST', '/hook?t=a%26b%20c', 'secret-1', 'application/json', { title: 'a&b c', owner: [] }]]);
      const [run] = await runsOf(ctx, flow);
      expect(run.steps[1]).toMatchObject({ node_alias: 'call', exit: 'ok' });
    });

    it('retries a 503 with the job\'s backoff; a 404 fails the run, or leaves by the error exit when told to continue', async () => {
      requests.length = 0;
      busyOnce = true;
      const retried = await publishDirect(ctx, onCreate(sheet), [node('call', 'http_request', { method: 'GET', url: `${httpBase}/busy`, retries: 2 }, START)], NOW);
      const failing = await publishDirect(ctx, onCreate(sheet), [node('call', 'http_request', { method: 'GET', url: `${httpBase}/missing` }, START)], NOW);
      const going = await publishDirect(
        ctx,
        onCreate(sheet),
        [
          node('call', 'http_request', { method: 'DELETE', url: `${httpBase}/missing`, onError: 'continue' }, START),
          node('mark', 'update_record', { worksheetId: sheet.id, record: { kind: 'record', node: START }, fields: [{ fieldId: sheet.field.result, value: { kind: 'template', value: '$call-exit$ $call-status$' } }] }, 'call'),
        ],
        NOW,
      );
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'Retry' }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await runsOf(ctx, retried))[0].status).toBe('queued');
      now = NOW + 1000;
      await ctx.app.jobs.runUntilIdle();
      now = NOW;
      expect((await runsOf(ctx, retried)).map((r) => r.status)).toEqual(['passed']);
      expect(requests.filter((r) => r.url === '/busy')).toHaveLength(2);
      expect((await runsOf(ctx, failing)).map((r) => [r.status, r.error])).toEqual([['failed', `call: GET ${httpBase}/missing answered HTTP 404`]]);
      expect((await runsOf(ctx, going)).map((r) => r.status)).toEqual(['passed']);
      expect(valueOf(await readRecord(ctx, sheet, id), sheet.field.result)).toBe('error 404');
    });
  },
  env,
  { clock: () => now },
);

describeApi(
  'workflow node types without the settings: private HTTP targets refused, no SMTP_URL; in-app notices',
  (ctx) => {
    it('refuses loopback and private targets unless HTTP_REQUEST_PRIVATE, fails send_email without SMTP_URL, and stores in-app notices as notifications', async () => {
      requests.length = 0;
      const sheet = await makeSheet(ctx, 'Tickets', [{ name: 'Title', alias: 'title', type: '2', isTitle: true, required: true }]);
      const refused = await publishDirect(ctx, onCreate(sheet), [node('call', 'http_request', { method: 'GET', url: `${httpBase}/hook`, retries: 3 }, START)], NOW);
      const byName = await publishDirect(ctx, onCreate(sheet), [node('call', 'http_request', { method: 'GET', url: `${httpBase.replace('127.0.0.1', 'localhost')}/hook` }, START)], NOW);
      const mail = await publishDirect(ctx, onCreate(sheet), [node('mail', 'send_email', { to: [{ kind: 'email', address: 'a@example.com' }], subject: 'x', body: 'y' }, START)], NOW);
      const notice = await publishDirect(ctx, onCreate(sheet), [node('tell', 'send_internal_notice', { to: [{ kind: 'user', accountId: ctx.setup.owner.accountId }], title: 'x' }, START)], NOW);
      await createRecord(ctx, sheet, [{ id: 'title', value: 'T' }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await runsOf(ctx, refused)).map((r) => [r.status, r.error])).toEqual([['failed', expect.stringContaining('is 127.0.0.1, a private or local address, which workflow HTTP requests may not reach (HTTP_REQUEST_PRIVATE=true allows it)')]]);
      expect((await runsOf(ctx, byName)).map((r) => [r.status, r.error])).toEqual([['failed', expect.stringMatching(/localhost resolves to (127\.0\.0\.1|::1), a private or local address/)]]);
      expect(requests).toEqual([]);
      expect((await runsOf(ctx, mail)).map((r) => r.error)).toEqual(['mail: mail is not configured on this server: set SMTP_URL to send email']);
      expect((await runsOf(ctx, notice)).map((r) => [r.status, r.error])).toEqual([['passed', null]]);
      const stored = await ctx.database.db.selectFrom('notifications').select(['account_id', 'kind', 'title', 'link']).where('kind', '=', 'notice').execute();
      expect(stored).toEqual([{ account_id: ctx.setup.owner.accountId, kind: 'notice', title: 'x', link: expect.stringMatching(new RegExp(`^/v3/app/worksheets/${sheet.id}/rows/`)) }]);
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW },
);
