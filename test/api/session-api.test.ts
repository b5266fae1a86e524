import { beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { SESSION_COOKIE } from '../../src/modules/sign-in/index.js';
import { describeApi, type ApiResponse } from '../helpers/api-harness.js';
import { addPerson, giveRole } from '../helpers/people.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';
import { csrfOf, WebClient } from '../helpers/web-client.js';

/**
 * A signed-in browser session as a credential of the API, over HTTP (inject) on every engine: the
 * person's roles decide (a member with an "own rows" role sees only theirs), every call that changes
 * data needs the session's CSRF token in X-CSRF-Token (10005 naming it), an ended session is refused
 * like no credential (10101), and an app key or an Authorization header wins over the cookie.
 */

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 25, 12, 0, 0);
let now = START;

interface ListData {
  rows: Array<{ fields: Array<{ id: string; value: unknown }> }>;
  total: number;
}

describeApi(
  'signed-in sessions on the API',
  (ctx) => {
    let sheet: Sheet;
    let memberId: string;
    let lastIp = 0;
    const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
    const browser = () => new WebClient(ctx.app, `10.1.0.${++lastIp}`);
    const appId = () => ({ 'SVC-Appid': ctx.setup.app.appId });
    /** The browser's cookies (the session's and the forms' CSRF one), as it would send them to the API. */
    const cookiesOf = (web: WebClient) => ({ cookie: [...web.jar].map(([name, value]) => `${name}=${value}`).join('; ') });
    /** A call from the browser: its cookies, the application and (unless `csrf` is false) the session's CSRF token. */
    const asBrowser = async <T = unknown>(web: WebClient, method: string, url: string, body?: unknown, headers: Record<string, string> = {}, csrf = true): Promise<ApiResponse<T>> =>
      ctx.call<T>(method, url, body, { ...cookiesOf(web), ...appId(), ...(csrf ? { 'X-CSRF-Token': await csrfTokenOf(web) } : {}), ...headers });
    const csrfTokenOf = async (web: WebClient): Promise<string> => {
      const answer = await web.get('/sign-in/csrf');
      expect(answer.status).toBe(200);
      return (JSON.parse(answer.body) as { data: { csrfToken: string } }).data.csrfToken;
    };
    const titlesOf = (listed: ApiResponse<ListData>) => listed.body.data.rows.map((row) => row.fields.find((field) => field.id === sheet.field.title)?.value).sort();
    const signedIn = async (email: string, password: string) => {
      const web = browser();
      expect((await web.signIn(email, password)).status).toBe(303);
      return web;
    };
    const owner = () => signedIn(ctx.setup.owner.email, ctx.setup.owner.password);
    const member = () => signedIn(`member-${ctx.engine}@example.com`, 'member password');

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Session orders', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      memberId = await addPerson(ctx, `member-${ctx.engine}@example.com`, 'member password', { now });
      const views = await ctx.call<{ views: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/views/batch`, { views: [{ name: 'All', viewType: 'table' }] });
      const inView = [{ viewId: views.body.data.views[0].id, read: true, edit: true, delete: true }];
      await giveRole(ctx, 'Own rows', { permissionScope: 0, worksheetPermissions: [{ id: sheet.id, recordPermissionInViews: inView, recordDataScope: { read: 20, edit: 20, delete: 20 }, recordActions: { add: true } }] }, [memberId]);
      expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'by the key' }] })).body.error_msg).toBe('');
    });

    it("reads with the cookie as the person: the owner administers the application, a member sees only their rows", async () => {
      const admin = await owner();
      const app = await asBrowser<{ appId: string }>(admin, 'GET', '/v3/app');
      expect(app.status).toBe(200);
      expect(app.body.data.appId).toBe(ctx.setup.app.appId);

      const web = await member();
      const made = await asBrowser<{ id: string }>(web, 'POST', rows(), { fields: [{ id: 'title', value: 'by the member' }] });
      expect(made.body.error_msg).toBe('');
      const own = await asBrowser<ListData>(web, 'POST', `${rows()}/list`, { pageSize: 50 });
      expect(own.body.error_msg).toBe('');
      expect(titlesOf(own)).toEqual(['by the member']);
      expect(titlesOf(await asBrowser<ListData>(admin, 'POST', `${rows()}/list`, { pageSize: 50 }))).toEqual(['by the key', 'by the member']);
      const record = await asBrowser<{ _createdBy: { accountId: string } }>(web, 'GET', `${rows()}/${made.body.data.id}`);
      expect(record.body.data._createdBy.accountId).toBe(memberId);
      // Calls above applications act in the person's organization, as a token of theirs would; the
      // admin API is for those who administer it.
      expect((await ctx.call<{ accountId: string }>('GET', '/v3/users/me', undefined, cookiesOf(web))).body.data.accountId).toBe(memberId);
      expect((await ctx.call('GET', '/admin/users', undefined, cookiesOf(admin))).status).toBe(200);
      expect((await ctx.call('GET', '/admin/users', undefined, cookiesOf(web))).body.error_code).toBe(10005);
    });

    it('needs the session’s CSRF token in X-CSRF-Token on every call that changes data: 10005 naming the header', async () => {
      const web = await member();
      const write = (headers: Record<string, string>) => asBrowser(web, 'POST', rows(), { fields: [{ id: 'title', value: 'checked' }] }, headers, false);
      const missing = await write({});
      expect(missing.status).toBe(403);
      expect(missing.body).toMatchObject({ error_code: 10005, error_msg: 'a call that changes data through a signed-in session needs the X-CSRF-Token header: GET /sign-in/csrf (or the settings page) gives its value' });
      const token = await csrfTokenOf(web);
      const wrong = await write({ 'X-CSRF-Token': `${token.slice(0, -2)}xx` });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ error_code: 10005, error_msg: 'the X-CSRF-Token header is not the token of this session: GET /sign-in/csrf gives the current one' });
      // The forms' token is not the API's, nor is another session's.
      expect((await write({ 'X-CSRF-Token': csrfOf((await web.get('/settings')).body) })).body.error_code).toBe(10005);
      expect((await write({ 'X-CSRF-Token': await csrfTokenOf(await member()) })).body.error_code).toBe(10005);
      for (const method of ['PATCH', 'DELETE']) expect((await asBrowser(web, method, `${rows()}/no-such-row`, method === 'PATCH' ? { fields: [] } : undefined, {}, false)).body.error_code, method).toBe(10005);
      // Reading through POST (rows/list, pivot) needs it too: the rule is the method's, simple for clients.
      expect((await asBrowser(web, 'POST', `${rows()}/list`, { pageSize: 1 }, {}, false)).body.error_code).toBe(10005);
      expect(await count('checked')).toBe(0);
      const accepted = await write({ 'x-csrf-token': token });
      expect(accepted.body.error_msg).toBe('');
      expect(await count('checked')).toBe(1);
    });

    async function count(title: string): Promise<number> {
      const listed = await ctx.call<{ total: number }>('POST', `${rows()}/list`, { pageSize: 1, filter: { type: 'condition', field: 'title', operator: 'eq', value: title } });
      return listed.body.data.total;
    }

    it('shows the same token on the settings page and at GET /sign-in/csrf, which answers 401 to anyone signed out', async () => {
      const web = await member();
      const settings = await web.get('/settings');
      expect(settings.headers['content-security-policy']).toMatch(/; connect-src 'self'$/);
      expect(/<code id="api-csrf-token"[^>]*>([^<]+)<\/code>/.exec(settings.body)?.[1]).toBe(await csrfTokenOf(web));
      const stranger = await browser().get('/sign-in/csrf');
      expect(stranger.status).toBe(401);
      expect(JSON.parse(stranger.body)).toEqual({ success: false, error_code: 10101, error_msg: 'not signed in: sign in at /sign-in first', data: null });
    });

    it('refuses a signed-out, idle or forged session like no credential (10101), on the next call', async () => {
      const web = await member();
      expect((await asBrowser(web, 'GET', '/v3/app', undefined, {}, false)).status).toBe(200);
      const cookies = cookiesOf(web);
      await web.submit('/settings', '/sign-out', {});
      const after = await ctx.call('GET', '/v3/app', undefined, { ...cookies, ...appId() });
      expect(after.status).toBe(401);
      expect(after.body).toMatchObject({ error_code: 10101, error_msg: 'this session has ended (signed out, expired or unknown): sign in again at /sign-in' });
      expect((await ctx.call('GET', '/v3/app', undefined, { cookie: `${SESSION_COOKIE}=forged.value`, ...appId() })).body.error_code).toBe(10101);

      const idle = await member();
      expect((await asBrowser(idle, 'GET', '/v3/app', undefined, {}, false)).status).toBe(200);
      now += 12 * HOUR;
      expect((await asBrowser(idle, 'GET', '/v3/app', undefined, {}, false)).body.error_code).toBe(10101);
    });

    it('lets an app key or an Authorization header win over the cookie, and names the session among the ways to authenticate', async () => {
      const web = await member();
      const byKey = await ctx.call<ListData>('POST', `${rows()}/list`, { pageSize: 50 }, { ...cookiesOf(web), ...ctx.auth });
      expect(byKey.body.error_msg).toBe('');
      expect(byKey.body.data.total).toBeGreaterThan(titlesOf(await asBrowser<ListData>(web, 'POST', `${rows()}/list`, { pageSize: 50 })).length);
      // The key writes without a CSRF token: the cookie is not what authenticates it.
      expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'key and cookie' }] }, { ...cookiesOf(web), ...ctx.auth })).body.error_msg).toBe('');

      const { token } = await createToken(ctx.database.db, memberId, { scopes: ['app:get'] }, now);
      const byToken = await asBrowser(web, 'POST', `${rows()}/list`, { pageSize: 1 }, { authorization: `Bearer ${token}` }, false);
      expect(byToken.body).toMatchObject({ error_code: 10005, error_msg: 'this credential was not given the scope record:list' });
      const unknownScheme = await asBrowser(web, 'GET', '/v3/app', undefined, { authorization: 'Basic Zm9vOmJhcg==' }, false);
      expect(unknownScheme.status).toBe(401);
      expect(unknownScheme.body.error_msg).toContain(`a signed-in session (cookie ${SESSION_COOKIE}, with SVC-Appid on application calls and X-CSRF-Token on changes)`);
    });

    it('needs SVC-Appid on application calls (10001), as a token does', async () => {
      const web = await member();
      const missing = await ctx.call('GET', `${rows()}/no-such-row`, undefined, cookiesOf(web));
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error_code: 10001, error_msg: 'the SVC-Appid header is required with a session: it names the application' });
    });
  },
  {},
  { clock: () => now },
);
