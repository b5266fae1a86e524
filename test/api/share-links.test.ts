import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import type { Sheet } from '../helpers/record-fixtures.js';
import { makeSharedRecord, shareRecord, SHARED_FILE_TEXT } from '../helpers/share-fixtures.js';

/** What the JSON view of a shared record answers. */
interface SharedView {
  worksheet: string;
  title: string | null;
  timeZone: string;
  expiresAt: string | null;
  fields: Array<{ id: string; name: string; type: string; value: unknown; text: string; files?: Array<{ name: string; size: number; url: string }> }>;
}

interface LinkItem {
  id: string;
  visibleFields: string[] | null;
  hasPassword: boolean;
  expiresAt: string | null;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  state: string;
}

const START = Date.UTC(2024, 2, 1, 8, 0, 0);
let now = START;

/**
 * Share links: made, listed and revoked through the API; the page they open (HTML for browsers,
 * JSON for programs) shows only the visible fields, formatted for people, behind an optional
 * password (wrong ones rate-limited), and says plainly when the link expired, was revoked or its
 * record deleted. The clock is fixed and moved by the tests; TIME_ZONE is Asia/Shanghai.
 */
describeApi(
  'share links',
  (ctx) => {
    let sheet: Sheet;
    let rowId: string;
    const base = () => `/v3/app/worksheets/${sheet.id}/rows/${rowId}`;
    const open = (path: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: path, headers: { accept: 'application/json', ...headers } });
    const page = (path: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...headers } });
    const postPassword = (path: string, password: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers }, payload: `password=${encodeURIComponent(password)}` });

    beforeAll(async () => {
      now = START; // each engine's block starts from the same time
      ({ sheet, rowId } = await makeSharedRecord(ctx, 'Orders'));
    });

    it('makes a link under PUBLIC_URL whose token (256 bits) is stored only as its SHA-256', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title', sheet.field.status], expiredIn: 7200 });
      expect(link.url).toMatch(/^https:\/\/tab\.example\/share\/records\/[A-Za-z0-9_-]{43}$/);
      expect(link.expiresAt).toBe(new Date(START + 7200_000).toISOString());
      const rows = await ctx.database.db.selectFrom('share_links').selectAll().execute();
      const stored = rows.find((r) => r.id === link.id)!;
      expect(stored.token_hash).toBe(createHash('sha256').update(link.token).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(link.token);
      expect(JSON.parse(stored.visible_fields!)).toEqual([sheet.field.title, sheet.field.status]);
      const other = await shareRecord(ctx, sheet, rowId);
      expect(other.token).not.toBe(link.token);
      // Also under the private-deployment prefix.
      const viaApi = await ctx.call('POST', `/api/v3/app/worksheets/${sheet.id}/rows/${rowId}/share-link`, {});
      expect(viaApi.body.error_msg).toBe('');
    });

    it('refuses unknown fields (10002 naming them), bad expiries, and records that are not live (10007)', async () => {
      const unknown = await ctx.call('POST', `${base()}/share-link`, { visibleFields: ['title', 'nope'] });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ success: false, error_code: 10002 });
      expect(unknown.body.error_msg).toBe('visibleFields[1]: no field "nope" in this worksheet');
      const negative = await ctx.call('POST', `${base()}/share-link`, { expiredIn: -5 });
      expect(negative.body).toMatchObject({ error_code: 10002 });
      expect(negative.body.error_msg).toContain('expiredIn');
      const fraction = await ctx.call('POST', `${base()}/share-link`, { expiredIn: 1.5 });
      expect(fraction.status).toBe(400);
      expect(fraction.body.error_msg).toContain('expiredIn');
      const past = await ctx.call('POST', `${base()}/share-link`, { validTime: '2020-01-01 00:00:00' });
      expect(past.body).toMatchObject({ error_code: 10002 });
      const missing = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/0190aaaa-0000-7000-8000-000000000000/share-link`, {});
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error_code: 10007 });
      const noCredentials = await ctx.call('POST', `${base()}/share-link`, {}, {});
      expect(noCredentials.status).toBe(401);
    });

    it('reads V2 validTime in TIME_ZONE', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { validTime: '2024-03-02 08:00:00' });
      expect(link.expiresAt).toBe('2024-03-02T00:00:00.000Z');
    });

    it('shows programs only the visible fields, with values formatted for people', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title', 'status', 'meeting', 'paid', 'owner', 'files'] });
      const opened = await open(link.path);
      expect(opened.statusCode).toBe(200);
      expect(opened.headers['content-type']).toContain('application/json');
      const view = opened.json<{ data: SharedView }>().data;
      expect(view).toMatchObject({ worksheet: 'Orders', title: 'ACME order', timeZone: 'Asia/Shanghai', expiresAt: null });
      const texts = Object.fromEntries(view.fields.map((f) => [f.name, f.text]));
      expect(texts).toEqual({ Title: 'ACME order', Status: 'Done', Meeting: '2024-03-05 14:30', Paid: 'Yes', Owner: 'Owner', Files: 'figures.txt' });
      expect(opened.body).not.toContain('top secret');
      expect(opened.body).not.toContain(sheet.field.secret);
      // The viewer's own zone, validated.
      const berlin = (await open(`${link.path}?tz=Europe/Berlin`)).json<{ data: SharedView }>().data;
      expect(berlin.fields.find((f) => f.name === 'Meeting')!.text).toBe('2024-03-05 07:30');
      const badZone = await open(`${link.path}?tz=Mars/Olympus`);
      expect(badZone.statusCode).toBe(400);
      expect(badZone.json()).toMatchObject({ error_code: 10002 });
      // Attachments download without an account.
      const file = view.fields.find((f) => f.name === 'Files')!.files![0];
      const download = await ctx.app.inject({ method: 'GET', url: new URL(file.url).pathname + new URL(file.url).search });
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe(SHARED_FILE_TEXT);
    });

    it('renders a page that escapes every value, under a strict Content-Security-Policy', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title', 'notes', 'files'] });
      const shown = await page(link.path);
      expect(shown.statusCode).toBe(200);
      expect(shown.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(shown.body).toContain('&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
      expect(shown.body).not.toContain('<script');
      expect(shown.body).not.toContain('<b>bold');
      expect(shown.body).not.toContain('top secret');
      expect(shown.body).toMatch(/<a href="https:\/\/tab\.example\/files\/[^"]+" download="figures\.txt">figures\.txt<\/a>/);
      const csp = String(shown.headers['content-security-policy']);
      expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]{44}'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/);
      // The style hash is the hash of the page's one inline style sheet.
      const style = /<style>([\s\S]*?)<\/style>/.exec(shown.body)![1];
      expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
      expect(shown.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    });

    it('lists the links of a record and revokes one (10007 for an unknown id)', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title'], password: 'pw', expiredIn: 60 });
      const listed = await ctx.call<{ links: LinkItem[] }>('GET', `${base()}/share-links`);
      expect(listed.body.error_msg).toBe('');
      const item = listed.body.data.links.find((l) => l.id === link.id)!;
      expect(item).toEqual({
        id: link.id,
        visibleFields: [sheet.field.title],
        hasPassword: true,
        expiresAt: new Date(START + 60_000).toISOString(),
        createdAt: new Date(START).toISOString(),
        createdBy: 'user-api',
        revokedAt: null,
        state: 'active',
      });
      expect(JSON.stringify(listed.body)).not.toContain(link.token);
      const stored = await ctx.database.db.selectFrom('share_links').select('password_hash').where('id', '=', link.id).executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      const revoked = await ctx.call('DELETE', `${base()}/share-links/${link.id}`);
      expect(revoked.body).toMatchObject({ success: true, data: null });
      const after = await ctx.call<{ links: LinkItem[] }>('GET', `${base()}/share-links`);
      expect(after.body.data.links.find((l) => l.id === link.id)).toMatchObject({ state: 'revoked', revokedAt: new Date(START).toISOString() });
      const unknown = await ctx.call('DELETE', `${base()}/share-links/nope`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error_code: 10007 });
      const gone = await open(link.path);
      expect(gone.statusCode).toBe(410);
      expect(gone.json()).toMatchObject({ success: false, error_code: 10007, error_msg: 'this share link was revoked' });
      const human = await page(link.path);
      expect(human.statusCode).toBe(410);
      expect(human.body).toContain('This link was turned off');
    });

    it('asks for the password: form and cookie for browsers, a header for programs', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title'], password: 'open sesame' });
      const asked = await page(link.path);
      expect(asked.statusCode).toBe(401);
      expect(asked.body).toContain('<input id="password" name="password" type="password"');
      expect(asked.body).not.toContain('ACME order');
      const wrong = await postPassword(link.path, 'guess');
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('That password is not right');
      expect(wrong.headers['set-cookie']).toBeUndefined();
      const right = await postPassword(`${link.path}?tz=UTC`, 'open sesame');
      expect(right.statusCode).toBe(303);
      expect(right.headers.location).toBe(`${link.path}?tz=UTC`);
      const cookie = String(right.headers['set-cookie']);
      expect(cookie).toMatch(new RegExp(`^share_pass=[A-Za-z0-9_-]{43}; Path=${link.path}; HttpOnly; SameSite=Strict; Secure$`));
      const inside = await page(link.path, { cookie: cookie.split(';')[0] });
      expect(inside.statusCode).toBe(200);
      expect(inside.body).toContain('ACME order');
      const forged = await page(link.path, { cookie: 'share_pass=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
      expect(forged.statusCode).toBe(401);
      const program = await open(link.path);
      expect(program.statusCode).toBe(401);
      expect(program.json()).toMatchObject({ error_code: 10101 });
      const programWrong = await open(link.path, { 'x-share-password': 'nope' });
      expect(programWrong.json()).toMatchObject({ error_code: 10102 });
      const programRight = await open(link.path, { 'x-share-password': 'open sesame' });
      expect(programRight.statusCode).toBe(200);
      expect(programRight.json<{ data: SharedView }>().data.title).toBe('ACME order');
    });

    it('refuses more passwords after SHARE_PASSWORD_ATTEMPTS failures per link and address, until the window passes', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { password: 'right' });
      const other = await shareRecord(ctx, sheet, rowId, { password: 'right' });
      for (let i = 0; i < 3; i++) expect((await postPassword(link.path, `wrong ${i}`)).statusCode).toBe(401);
      now += 60_000;
      const limited = await postPassword(link.path, 'right');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe(String(14 * 60));
      expect(limited.body).toContain('Try again in 14 minutes');
      const limitedJson = await open(link.path, { 'x-share-password': 'right' });
      expect(limitedJson.statusCode).toBe(429);
      expect(limitedJson.json()).toMatchObject({ error_code: 51 });
      // Another address, and another link, are counted on their own.
      expect((await postPassword(link.path, 'right', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
      expect((await ctx.app.inject({ method: 'POST', url: link.path, remoteAddress: '198.51.100.7', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'password=right' })).statusCode).toBe(303);
      expect((await postPassword(other.path, 'right')).statusCode).toBe(303);
      now += 14 * 60_000;
      expect((await postPassword(link.path, 'right')).statusCode).toBe(303);
    });

    it('says a link has expired once the clock passes its expiry', async () => {
      const link = await shareRecord(ctx, sheet, rowId, { expiredIn: 3600 });
      expect((await open(link.path)).statusCode).toBe(200);
      now += 3600_000;
      const expired = await open(link.path);
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toMatchObject({ error_code: 10007, error_msg: 'this share link has expired' });
      const human = await page(link.path);
      expect(human.statusCode).toBe(410);
      expect(human.body).toContain('This link has expired');
      const listed = await ctx.call<{ links: LinkItem[] }>('GET', `${base()}/share-links`);
      expect(listed.body.data.links.find((l) => l.id === link.id)!.state).toBe('expired');
    });

    it('says the record was deleted, and answers unknown tokens with 404', async () => {
      const { sheet: doomedSheet, rowId: doomed } = await makeSharedRecord(ctx, 'Doomed');
      const link = await shareRecord(ctx, doomedSheet, doomed);
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${doomedSheet.id}/rows/${doomed}`)).body.error_msg).toBe('');
      const deleted = await open(link.path);
      expect(deleted.statusCode).toBe(410);
      expect(deleted.json()).toMatchObject({ error_msg: 'the shared record was deleted' });
      expect((await page(link.path)).body).toContain('This record was deleted');
      const refused = await ctx.call('POST', `/v3/app/worksheets/${doomedSheet.id}/rows/${doomed}/share-link`, {});
      expect(refused.body).toMatchObject({ error_code: 10007 });
      const unknown = await page(`/share/records/${'A'.repeat(43)}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('Link not found');
      expect((await open('/share/records/short')).json()).toMatchObject({ error_code: 10007, error_msg: 'this share link does not exist' });
    });
  },
  { PUBLIC_URL: 'https://tab.example', TIME_ZONE: 'Asia/Shanghai', SHARE_PASSWORD_ATTEMPTS: '3' },
  { clock: () => now },
);
