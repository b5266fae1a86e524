import { describe, expect, it } from 'vitest';
import { MailError, type MailMessage } from '../../../src/mail/mailer.js';
import { codeNode } from '../../../src/workflow/node-types/code.js';
import { httpRequestNode } from '../../../src/workflow/node-types/http-request.js';
import { sendEmailNode } from '../../../src/workflow/node-types/send-email.js';
import { sendInternalNoticeNode } from '../../../src/workflow/node-types/send-internal-notice.js';
import { HttpFailure, type HttpExchange, type Notice } from '../../../src/workflow/node-ports.js';
import { RetryLater } from '../../../src/workflow/node-type.js';
import { fakeCheck, fakeContext } from './fake-node-context.js';

const outputs = { start: { rowId: 'r1', fields: { title: 'Q&A <b>"hot"</b>', who: [{ accountId: 'acc-7' }], n: 3, q: 'a b&c' } } };
const field = (fieldId: string) => ({ kind: 'field' as const, node: 'start', fieldId });

describe('http_request node', () => {
  function withAnswers(answers: Array<{ status: number; body?: string } | HttpFailure>, attempt = 1) {
    const sent: HttpExchange[] = [];
    const ctx = fakeContext(outputs, {
      http: {
        request(exchange) {
          sent.push(exchange);
          const next = answers.shift()!;
          return next instanceof HttpFailure ? Promise.reject(next) : Promise.resolve({ status: next.status, headers: {}, body: next.body ?? '' });
        },
      },
    }, { attempt });
    return { ctx, sent };
  }

  it('builds the request from templates (URL values encoded) or a JSON body of references, and maps the JSON answer', async () => {
    const { ctx, sent } = withAnswers([{ status: 201, body: '{"data":{"items":[{"id":"x9"}]}}' }]);
    const outcome = await httpRequestNode.run({ method: 'POST', url: 'https://api.example.com/q?s=$start-q$', headers: [{ name: 'X-Title', value: '$start-title$' }], json: { title: field('title'), n: field('n') }, responseMapping: [{ key: 'id', path: 'data.items[0].id' }, { key: 'none', path: 'data.nope' }] }, ctx);
    expect(sent).toEqual([{ method: 'POST', url: 'https://api.example.com/q?s=a%20b%26c', headers: { 'x-title': 'Q&A <b>"hot"</b>', 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Q&A <b>"hot"</b>', n: 3 }), timeoutMs: 10_000 }]);
    expect(outcome).toEqual({ exit: 'ok', output: { ok: true, status: 201, body: '{"data":{"items":[{"id":"x9"}]}}', id: 'x9', none: null } });
  });

  it('asks for a retry on a failure that may pass while it has retries and the job has attempts', async () => {
    await expect(httpRequestNode.run({ method: 'GET', url: 'https://x.example.com', retries: 2 }, withAnswers([{ status: 503 }], 2).ctx)).rejects.toBeInstanceOf(RetryLater);
    await expect(httpRequestNode.run({ method: 'GET', url: 'https://x.example.com', retries: 2 }, withAnswers([new HttpFailure('no answer within 10 ms', false)], 1).ctx)).rejects.toBeInstanceOf(RetryLater);
    // Out of retries: the run fails, or goes on by the error exit.
    await expect(httpRequestNode.run({ method: 'GET', url: 'https://x.example.com', retries: 2 }, withAnswers([{ status: 503 }], 3).ctx)).rejects.toThrow('GET https://x.example.com answered HTTP 503');
    expect(await httpRequestNode.run({ method: 'GET', url: 'https://x.example.com', retries: 2, onError: 'continue' }, withAnswers([{ status: 503, body: 'busy' }], 3).ctx)).toEqual({ exit: 'error', output: { ok: false, status: 503, error: 'GET https://x.example.com answered HTTP 503', body: 'busy' } });
    // Never retried: a 4xx, a refused address.
    await expect(httpRequestNode.run({ method: 'GET', url: 'https://x.example.com', retries: 2 }, withAnswers([{ status: 404 }]).ctx)).rejects.toThrow('answered HTTP 404');
    await expect(httpRequestNode.run({ method: 'GET', url: 'http://10.0.0.1', retries: 2 }, withAnswers([new HttpFailure('http://10.0.0.1 is 10.0.0.1, a private or local address', true)]).ctx)).rejects.toThrow('a private or local address');
  });

  it('checks its URL, body and references when saved', async () => {
    expect(await httpRequestNode.check!({ method: 'POST', url: 'ftp://x', body: '$later-x$', json: {} }, fakeCheck())).toEqual([
      { path: 'body', message: 'refers to the node "later", which does not run before this one' },
      { path: 'json', message: 'give a body or a json body, not both' },
      { path: 'url', message: 'must start with http:// or https:// (or a placeholder holding the URL)' },
    ]);
  });
});

describe('send_email node', () => {
  function withMail(fail?: MailError, attempt = 1) {
    const sent: MailMessage[] = [];
    const ctx = fakeContext(outputs, { mail: { send: (m) => (fail ? Promise.reject(fail) : (sent.push(m), Promise.resolve({ messageId: '<m1@x>', accepted: m.to, rejected: [] }))) } }, { attempt });
    return { ctx, sent };
  }

  it('sends to people (their addresses) and addresses, escaping values in an HTML body, the subject on one line', async () => {
    const { ctx, sent } = withMail();
    const outcome = await sendEmailNode.run({ to: [{ kind: 'value', value: field('who') }, { kind: 'email', address: 'ops@example.com' }], cc: [{ kind: 'triggerUser' }, { kind: 'email', address: 'ops@example.com' }], subject: 'New: $start-title$', body: '<p>$start-title$</p>', bodyType: 'html' }, ctx);
    expect(sent).toEqual([{ to: ['ops@example.com', 'acc-7@example.com'], cc: ['acc-initiator@example.com'], subject: 'New: Q&A <b>"hot"</b>', html: '<p>Q&amp;A &lt;b&gt;&quot;hot&quot;&lt;/b&gt;</p>' }]);
    expect(outcome).toEqual({ exit: 'next', output: { sent: true, messageId: '<m1@x>', to: ['ops@example.com', 'acc-7@example.com'], cc: ['acc-initiator@example.com'], accepted: ['ops@example.com', 'acc-7@example.com'] } });
  });

  it('fails saying so without SMTP_URL; retries transient failures while the job has attempts; goes on with nobody to write to', async () => {
    const config = { to: [{ kind: 'email' as const, address: 'a@example.com' }], subject: 'Hi', body: 'x' };
    await expect(sendEmailNode.run(config, fakeContext(outputs))).rejects.toThrow('mail is not configured on this server: set SMTP_URL to send email');
    await expect(sendEmailNode.run(config, withMail(new MailError('421 busy', true), 4).ctx)).rejects.toBeInstanceOf(RetryLater);
    await expect(sendEmailNode.run(config, withMail(new MailError('421 busy', true), 5).ctx)).rejects.toThrow('sending mail failed: 421 busy');
    await expect(sendEmailNode.run(config, withMail(new MailError('550 no such user', false)).ctx)).rejects.toThrow('sending mail failed: 550 no such user');
    const nobody = withMail();
    expect(await sendEmailNode.run({ ...config, to: [{ kind: 'value', value: field('none') }] }, nobody.ctx)).toEqual({ exit: 'next', output: { sent: false, to: [], cc: [] } });
    expect(nobody.sent).toEqual([]);
  });
});

describe('send_internal_notice node', () => {
  it('notifies the people through the notices port, and refuses addresses when saved', async () => {
    const notices: Notice[] = [];
    const ctx = fakeContext(outputs, { notices: { notify: (n) => (notices.push(n), Promise.resolve()) } }, { worksheetId: 'ws', rowId: 'r1' });
    expect(await sendInternalNoticeNode.run({ to: [{ kind: 'value', value: field('who') }], title: 'About $start-title$', body: 'n=$start-n$' }, ctx)).toEqual({ exit: 'next', output: { accountIds: ['acc-7'], title: 'About Q&A <b>"hot"</b>' } });
    expect(notices).toEqual([{ accountIds: ['acc-7'], title: 'About Q&A <b>"hot"</b>', body: 'n=3', appId: 'app-1', runId: 'run-1', worksheetId: 'ws', rowId: 'r1' }]);
    await expect(sendInternalNoticeNode.run({ to: [{ kind: 'triggerUser' }], title: 'x' }, fakeContext(outputs))).rejects.toThrow('in-app notices are not available');
    expect(await sendInternalNoticeNode.check!({ to: [{ kind: 'email', address: 'a@b.c' }], title: 'x' }, fakeCheck())).toEqual([{ path: 'to[0]', message: 'an in-app notice goes to people: an email address is no recipient here' }]);
  });
});

describe('code node (QuickJS sandbox)', () => {
  const ctx = fakeContext(outputs);
  it('runs the code with its inputs and outputs the returned object', async () => {
    expect(await codeNode.run({ code: 'return { total: input.n * 2, title: input.title.toUpperCase(), keys: Object.keys(input) }', inputs: { n: field('n'), title: field('title') } }, ctx)).toEqual({ exit: 'next', output: { total: 6, title: 'Q&A <B>"HOT"</B>', keys: ['n', 'title'] } });
  });

  it('has no Node: no require, process, or import', async () => {
    expect(await codeNode.run({ code: 'return { types: [typeof require, typeof process, typeof globalThis.fetch, typeof setTimeout] }' }, ctx)).toEqual({ exit: 'next', output: { types: ['undefined', 'undefined', 'undefined', 'undefined'] } });
  });

  it('stops code running past its time limit, and code using more than its memory', async () => {
    const started = Date.now();
    await expect(codeNode.run({ code: 'while (true) {}', timeoutMs: 200 }, ctx)).rejects.toThrow('the code ran longer than 200 ms');
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(codeNode.run({ code: 'const a = []; for (;;) a.push({ i: a.length });', memoryMb: 4, timeoutMs: 10_000 }, ctx)).rejects.toThrow('the code used more than 4 MB of memory');
    // The next run is unharmed.
    expect(await codeNode.run({ code: 'return { ok: 1 }' }, ctx)).toMatchObject({ output: { ok: 1 } });
  });

  it('fails with the script\'s error, or when it returns no object', async () => {
    await expect(codeNode.run({ code: 'throw new TypeError("bad input")' }, ctx)).rejects.toThrow('the code threw TypeError: bad input');
    await expect(codeNode.run({ code: 'return 5' }, ctx)).rejects.toThrow('the code must return an object (its keys are the node\'s output), it returned number');
    await expect(codeNode.run({ code: 'return [1]' }, ctx)).rejects.toThrow('it returned an array');
    await expect(codeNode.run({ code: 'return {' }, ctx)).rejects.toThrow('the code threw SyntaxError');
  });
});
