import { beforeAll, describe, expect, it } from 'vitest';
import { createSessionStrategy } from '../../src/auth/session-strategy.js';
import { apiCsrf, safeNextPath, SESSION_COOKIE, SessionStore, sessionSecretOf, sessionSigner, SIGN_IN_WINDOW_MS } from '../../src/modules/sign-in/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { addPerson } from '../helpers/people.js';
import { alertOf, csrfOf, WebClient } from '../helpers/web-client.js';

/**
 * The sign-in, sign-out and settings pages over HTTP (inject), on every engine: the same message
 * for every failed sign-in, CSRF on every form, attempts limited per email and per address (on
 * the test's clock), no open redirect, the cookie's attributes, sessions ended by sign-out, a
 * password change or a disabled person, and tokens made, listed and revoked on the page.
 */

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 25, 12, 0, 0);
let now = START;
let lastIp = 0;
/** A client from an address of its own, so that the per-address limit of one test does not reach another. */
const browser = (ctx: ApiContext) => new WebClient(ctx.app, `10.0.${Math.floor(++lastIp / 250)}.${lastIp % 250}`);

const person = (ctx: ApiContext, email: string, password: string, status = 1) => addPerson(ctx, email, password, { now, status });

describe('safeNextPath', () => {
  it('keeps paths of this server and refuses everything that could leave it', () => {
    expect(safeNextPath('/settings?tab=tokens#new')).toBe('/settings?tab=tokens#new');
    expect(safeNextPath('/v3/app')).toBe('/v3/app');
    for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', '/\t/evil.example', ' /settings', 'evil.example', '', '/sign-in', '/sign-in?next=//x', undefined, 42]) {
      expect(safeNextPath(next), String(next)).toBe('/settings');
    }
  });
});

describeApi(
  'sign-in pages',
  (ctx) => {
    const owner = () => ({ email: ctx.setup.owner.email, password: ctx.setup.owner.password });

    beforeAll(() => {
      now = START;
    });

    it('shows an accessible form with a CSRF token, the page policy, and leaves no session behind', async () => {
      const web = browser(ctx);
      const form = await web.get('/sign-in');
      expect(form.status).toBe(200);
      expect(form.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(form.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/);
      expect(form.headers['cache-control']).toBe('no-store');
      expect(form.body).toContain('<label for="email">Email</label>');
      expect(form.body).toContain('<label for="password">Password</label>');
      expect(form.body).not.toContain('<script');
      expect(csrfOf(form.body)).toMatch(/\S{20,}/);
      expect(form.cookies.map((c) => c.name)).toEqual(['tabularium_csrf']);
      expect(await ctx.database.db.selectFrom('sessions').select('id').execute()).toEqual([]);
    });

    it('signs the owner in: a new session cookie (HttpOnly, SameSite=Lax, Path=/, not Secure over http), then the settings page', async () => {
      const web = browser(ctx);
      const response = await web.signIn(owner().email, owner().password);
      expect(response.status).toBe(303);
      expect(response.location).toBe('/settings');
      const session = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
      expect(session).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
      expect(session.secure).toBeUndefined();
      expect(response.headers['set-cookie']).not.toMatch(/Secure/);
      const settings = await web.get('/settings');
      expect(settings.status).toBe(200);
      expect(settings.body).toContain('<span id="signed-in-email">owner@tabularium.local</span>');
      // The store keeps a hash of the id, never the id itself.
      const rows = await ctx.database.db.selectFrom('sessions').select(['id', 'account_id']).execute();
      const id = sessionSigner(await sessionSecretOf(ctx.config, ctx.database.db)).unsign(session.value).value!;
      expect(rows.map((r) => r.id)).not.toContain(id);
      expect(rows).toContainEqual({ id: expect.stringMatching(/^[0-9a-f]{64}$/), account_id: ctx.setup.owner.accountId });
    });

    it('rotates the session id at sign-in: an id held before signs no one in', async () => {
      const web = browser(ctx);
      const form = await web.get('/sign-in');
      const post = () => web.post('/sign-in', { _csrf: csrfOf(form.body), email: owner().email, password: owner().password });
      expect((await post()).status).toBe(303);
      const first = web.jar.get(SESSION_COOKIE)!;
      const again = await post();
      expect(again.status).toBe(303);
      const second = web.jar.get(SESSION_COOKIE)!;
      expect(second).not.toBe(first);
      const stale = new WebClient(ctx.app);
      stale.jar.set(SESSION_COOKIE, first);
      expect((await stale.get('/settings')).location).toBe('/sign-in?next=%2Fsettings');
    });

    it('answers a wrong password, an unknown email and a disabled person with the same page and message', async () => {
      await person(ctx, `disabled-${ctx.engine}@example.com`, 'right password', 2);
      const attempts = [
        [owner().email, 'not the password'],
        [`nobody-${ctx.engine}@example.com`, 'whatever it is'],
        [`disabled-${ctx.engine}@example.com`, 'right password'],
      ];
      const answers = [];
      for (const [email, password] of attempts) {
        const response = await browser(ctx).signIn(email, password);
        answers.push({ status: response.status, message: alertOf(response.body), session: response.cookies.some((c) => c.name === SESSION_COOKIE) });
        expect(response.body).toContain(`value="${email}"`);
        expect(response.body).not.toContain(password);
      }
      expect(answers).toEqual(Array(3).fill({ status: 401, message: 'Email or password is wrong.', session: false }));
    });

    it('refuses a form without a CSRF token, with a wrong one, or without the CSRF cookie: 403', async () => {
      const web = browser(ctx);
      const form = await web.get('/sign-in');
      const missing = await web.post('/sign-in', { email: owner().email, password: owner().password });
      expect(missing.status).toBe(403);
      expect(missing.body).toContain('This form has expired');
      const token = csrfOf(form.body);
      const wrong = await web.post('/sign-in', { _csrf: `${token.slice(0, -2)}xx`, email: owner().email, password: owner().password });
      expect(wrong.status).toBe(403);
      const cookieless = new WebClient(ctx.app, '10.9.9.9');
      expect((await cookieless.post('/sign-in', { _csrf: token, email: owner().email, password: owner().password })).status).toBe(403);
      // The right token with its cookie works, so the refusals were about CSRF alone.
      expect((await web.post('/sign-in', { _csrf: token, email: owner().email, password: owner().password })).status).toBe(303);
    });

    it("refuses a signed-in form's token in another session, and sign-out without a token", async () => {
      const alice = browser(ctx);
      await alice.signIn(owner().email, owner().password);
      const alicePage = await alice.get('/settings');
      const bob = browser(ctx);
      await bob.signIn(owner().email, owner().password);
      // Bob's browser posting Alice's token (with Bob's own CSRF cookie) is refused.
      bob.jar.set('tabularium_csrf', alice.jar.get('tabularium_csrf')!);
      expect((await bob.post('/settings/tokens', { _csrf: csrfOf(alicePage.body), name: 'x', scopes: 'record:list' })).status).toBe(403);
      expect((await alice.post('/sign-out', {})).status).toBe(403);
      expect((await alice.get('/settings')).status).toBe(200);
    });

    it('limits failed sign-ins per email, known or not (5 in 15 minutes), even with the right password then', async () => {
      for (const email of [owner().email, `ghost-${ctx.engine}@example.com`]) {
        for (let i = 0; i < 5; i++) expect((await browser(ctx).signIn(email, `guess ${i}`)).status).toBe(401);
        now += MINUTE;
        const limited = await browser(ctx).signIn(email, email === owner().email ? owner().password : 'guess 6');
        expect(limited.status).toBe(429);
        expect(limited.headers['retry-after']).toBe('840');
        expect(alertOf(limited.body)).toBe('Too many attempts; try again in 14 minutes.');
        expect(limited.cookies.some((c) => c.name === SESSION_COOKIE)).toBe(false);
      }
      now += SIGN_IN_WINDOW_MS - MINUTE;
      expect((await browser(ctx).signIn(owner().email, owner().password)).status).toBe(303);
    });

    it('limits failed sign-ins per address (SIGN_IN_ATTEMPTS_PER_IP) whatever the emails', async () => {
      const web = new WebClient(ctx.app, '192.0.2.7');
      for (let i = 0; i < 8; i++) expect((await web.signIn(`someone-${i}@example.com`, 'guess')).status).toBe(401);
      const limited = await web.signIn(owner().email, owner().password);
      expect(limited.status).toBe(429);
      expect(alertOf(limited.body)).toBe('Too many attempts; try again in 15 minutes.');
      // Another address is not held back.
      expect((await browser(ctx).signIn(owner().email, owner().password)).status).toBe(303);
      now += SIGN_IN_WINDOW_MS;
      expect((await web.signIn(owner().email, owner().password)).status).toBe(303);
    });

    it('goes to a next path of this server after signing in, and to /settings for anything else', async () => {
      const cases: Array<[string, string]> = [
        ['/settings?from=mail', '/settings?from=mail'],
        ['//evil.example', '/settings'],
        ['https://evil.example', '/settings'],
        ['/\\evil.example', '/settings'],
        ['javascript:alert(1)', '/settings'],
      ];
      for (const [next, landing] of cases) {
        const web = browser(ctx);
        const form = await web.get(`/sign-in?next=${encodeURIComponent(next)}`);
        expect(form.body).toContain(`name="next" value="${landing}"`);
        // Posted directly too: the server checks what it is sent, not only what it rendered.
        const response = await web.post('/sign-in', { _csrf: csrfOf(form.body), email: owner().email, password: owner().password, next });
        expect(response.location, next).toBe(landing);
      }
    });

    it('sends a signed-out visitor of /settings to the sign-in form, which returns there', async () => {
      const web = browser(ctx);
      const away = await web.get('/settings');
      expect(away.status).toBe(303);
      expect(away.location).toBe('/sign-in?next=%2Fsettings');
      expect((await web.signIn(owner().email, owner().password, '/settings')).location).toBe('/settings');
      expect((await web.get('/sign-in')).location).toBe('/settings');
    });

    it('signs out: the session ends in the store, and its cookie no longer works', async () => {
      const web = browser(ctx);
      await web.signIn(owner().email, owner().password);
      const cookie = web.jar.get(SESSION_COOKIE)!;
      const settings = await web.get('/settings');
      const out = await web.post('/sign-out', { _csrf: csrfOf(settings.body) });
      expect(out.status).toBe(303);
      expect(out.location).toBe('/sign-in?out');
      expect(web.jar.has(SESSION_COOKIE)).toBe(false);
      expect(alertOf((await web.get('/sign-in?out')).body)).toBeUndefined();
      expect((await web.get('/sign-in?out')).body).toContain('You have signed out.');
      const replay = new WebClient(ctx.app);
      replay.jar.set(SESSION_COOKIE, cookie);
      expect((await replay.get('/settings')).status).toBe(303);
    });

    it('ends sessions idle for 12 hours, 7 days after sign-in, and of a disabled person', async () => {
      const email = `lifetime-${ctx.engine}@example.com`;
      const id = await person(ctx, email, 'a good password');
      const web = browser(ctx);
      await web.signIn(email, 'a good password');
      now += 11 * 60 * MINUTE;
      expect((await web.get('/settings')).status).toBe(200);
      now += 12 * 60 * MINUTE;
      expect((await web.get('/settings')).status).toBe(303);

      await web.signIn(email, 'a good password');
      const signedInAt = now;
      // Used every 10 hours, it lives until 7 days after sign-in, and not a moment longer.
      while (now + 10 * 60 * MINUTE < signedInAt + 7 * 24 * 60 * MINUTE) {
        now += 10 * 60 * MINUTE;
        expect((await web.get('/settings')).status).toBe(200);
      }
      now = signedInAt + 7 * 24 * 60 * MINUTE - 1;
      expect((await web.get('/settings')).status).toBe(200);
      now += 1;
      expect((await web.get('/settings')).status).toBe(303);

      await web.signIn(email, 'a good password');
      expect((await web.get('/settings')).status).toBe(200);
      await ctx.database.db.updateTable('accounts').set({ status: 2 }).where('id', '=', id).execute();
      expect((await web.get('/settings')).status).toBe(303);
    });

    it('changes the password: wrong current, mismatch and too short refused; then the old one fails and other sessions end', async () => {
      const email = `changer-${ctx.engine}@example.com`;
      const accountId = await person(ctx, email, 'first password');
      const web = browser(ctx);
      await web.signIn(email, 'first password');
      const signedInAt = now;
      now += MINUTE;
      const other = browser(ctx);
      await other.signIn(email, 'first password');
      const change = (form: Record<string, string>) => web.submit('/settings', '/settings/password', form);
      const refusals = [
        [{ current: 'wrong', password: 'second password', confirm: 'second password' }, 'Your current password is wrong.'],
        [{ current: 'first password', password: 'second password', confirm: 'second passw0rd' }, 'The new password and its confirmation differ.'],
        [{ current: 'first password', password: 'short', confirm: 'short' }, 'The new password is too short: at least 8 characters.'],
      ] as const;
      for (const [form, message] of refusals) {
        const response = await change(form);
        expect(response.status).toBe(400);
        expect(alertOf(response.body)).toBe(message);
      }
      const done = await change({ current: 'first password', password: 'second password', confirm: 'second password' });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/settings?done=password');
      expect((await web.get('/settings?done=password')).body).toContain('Your password was changed.');
      expect((await other.get('/settings')).status).toBe(303);
      // One session is left, under a new id, still ending 7 days after its sign-in.
      const sessions = await ctx.database.db.selectFrom('sessions').select('created_at').where('account_id', '=', accountId).execute();
      expect(sessions.map((row) => Number(row.created_at))).toEqual([signedInAt]);
      expect((await browser(ctx).signIn(email, 'first password')).status).toBe(401);
      expect((await browser(ctx).signIn(email, 'second password')).status).toBe(303);
    });

    it('makes a token on the page, shows it once, lists it, and revokes it: it stops working at once', async () => {
      const web = browser(ctx);
      await web.signIn(owner().email, owner().password);
      const created = await web.submit('/settings', '/settings/tokens', { name: 'page script', scopes: ['app:get', 'worksheet:list'], expires: '7', apps: 'listed', appIds: ctx.setup.app.appId });
      expect(created.status).toBe(200);
      const token = /<code id="new-token"[^>]*>(pat_[A-Za-z0-9_-]+)<\/code>/.exec(created.body)![1];
      expect(created.body).toContain('shown only this once');
      const headers = { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId };
      expect((await ctx.call('GET', '/v3/app', undefined, headers)).body).toMatchObject({ success: true, error_msg: '' });

      const settings = await web.get('/settings');
      expect(settings.body).not.toContain(token);
      const row = new RegExp(`<tr data-token="([0-9a-f]{24})">\\s*<td>page script</td><td><code>${token.slice(0, 8)}…</code></td><td>app:get, worksheet:list</td>\\s*<td>${ctx.setup.app.appId}</td>\\s*<td>2026-12-\\d\\d \\d\\d:\\d\\d</td><td data-status>active</td>`).exec(settings.body);
      expect(row).not.toBeNull();
      const revoked = await web.post(`/settings/tokens/${row![1]}/revoke`, { _csrf: csrfOf(settings.body) });
      expect(revoked.status).toBe(303);
      expect(revoked.location).toBe('/settings?done=revoked');
      // No clock change: the strategy's cached check was dropped by the revocation.
      expect((await ctx.call('GET', '/v3/app', undefined, headers)).body).toMatchObject({ error_code: 10105, error_msg: 'this personal access token was revoked' });
      expect((await web.get('/settings')).body).toMatch(new RegExp(`<tr data-token="${row![1]}">[\\s\\S]*?<td data-status>revoked</td>`));
    });

    it("checks the posted scopes and values on the server (600311), and refuses another person's token", async () => {
      const web = browser(ctx);
      await web.signIn(owner().email, owner().password);
      const unknown = await web.submit('/settings', '/settings/tokens', { name: 'forged', scopes: ['record:list', 'record:everything'], expires: 'never', apps: 'all' });
      expect(unknown.status).toBe(400);
      expect(alertOf(unknown.body)).toBe('scopes[1]: "record:everything" is not a scope (public names such as record:list, or their codes such as 30500)');
      const none = await web.submit('/settings', '/settings/tokens', { name: 'nothing', expires: 'never', apps: 'all' });
      expect(alertOf(none.body)).toMatch(/at least one scope is required/);
      const past = await web.submit('/settings', '/settings/tokens', { name: 'old', allScopes: 'on', expires: 'date', expiresOn: '2020-01-01', apps: 'all' });
      expect(alertOf(past.body)).toBe('expires: the date is in the past');
      const all = await web.submit('/settings', '/settings/tokens', { name: 'everything', allScopes: 'on', expires: 'date', expiresOn: '2027-01-31', apps: 'all' });
      expect(all.body).toContain('Expires: 2027-01-31 23:59 UTC');

      const email = `other-${ctx.engine}@example.com`;
      await person(ctx, email, 'other password');
      const stranger = browser(ctx);
      await stranger.signIn(email, 'other password');
      const ownerTokenId = /<tr data-token="([0-9a-f]{24})">/.exec((await web.get('/settings')).body)![1];
      const refused = await stranger.submit('/settings', `/settings/tokens/${ownerTokenId}/revoke`, {});
      expect(refused.status).toBe(404);
    });

    it('gives the session strategy the signed-in person as an Actor of kind session, and refuses an ended session (10101)', async () => {
      const secret = await sessionSecretOf(ctx.config, ctx.database.db);
      const strategy = createSessionStrategy({ db: ctx.database.db, sessions: new SessionStore(ctx.database.db, () => now), signer: sessionSigner(secret), csrf: apiCsrf(secret), headerPrefix: 'SVC', clock: () => now });
      const request = (cookies: Record<string, string | undefined>, headers: Record<string, string> = {}, routeScope?: 'record:list') => ({ method: 'GET', cookies, headers, ip: '127.0.0.1', query: {}, routeScope });
      const web = browser(ctx);
      await web.signIn(owner().email, owner().password);
      const cookies = { [SESSION_COOKIE]: web.jar.get(SESSION_COOKIE) };
      const actor = await strategy.authenticate(request(cookies, { 'svc-appid': ctx.setup.app.appId }, 'record:list'));
      expect(actor).toMatchObject({ kind: 'session', appId: ctx.setup.app.appId, userId: ctx.setup.owner.accountId, accountId: ctx.setup.owner.accountId, scopes: null, grants: { administrator: true, readOnly: false } });
      expect(await strategy.authenticate(request({}))).toBeNull();
      await expect(strategy.authenticate(request(cookies, {}, 'record:list'))).rejects.toMatchObject({ code: 10001 });
      await web.post('/sign-out', { _csrf: csrfOf((await web.get('/settings')).body) });
      await expect(strategy.authenticate(request(cookies))).rejects.toMatchObject({ code: 10101 });
      await expect(strategy.authenticate(request({ [SESSION_COOKIE]: 'forged.value' }))).rejects.toMatchObject({ code: 10101 });

      // A member without a role: no grants; once disabled, the session is over (10101).
      const email = `member-${ctx.engine}@example.com`;
      const memberId = await person(ctx, email, 'member password');
      const member = browser(ctx);
      await member.signIn(email, 'member password');
      const memberCookies = { [SESSION_COOKIE]: member.jar.get(SESSION_COOKIE) };
      expect(await strategy.authenticate(request(memberCookies, { 'svc-appid': ctx.setup.app.appId }))).toMatchObject({ kind: 'session', userId: memberId, grants: { administrator: false } });
      await ctx.database.db.updateTable('accounts').set({ status: 2 }).where('id', '=', memberId).execute();
      await expect(strategy.authenticate(request(memberCookies))).rejects.toMatchObject({ code: 10101 });
    });
  },
  { SIGN_IN_ATTEMPTS_PER_IP: '8' },
  { clock: () => now },
);

describeApi(
  'sign-in pages behind https',
  (ctx) => {
    it('marks the session and CSRF cookies Secure when PUBLIC_URL is https', async () => {
      const web = new WebClient(ctx.app);
      const form = await web.get('/sign-in');
      expect(form.cookies.find((c) => c.name === 'tabularium_csrf')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      const response = await web.post('/sign-in', { _csrf: csrfOf(form.body), email: ctx.setup.owner.email, password: ctx.setup.owner.password });
      expect(response.status).toBe(303);
      expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
      expect((await web.get('/settings')).status).toBe(200);
    });
  },
  { PUBLIC_URL: 'https://tab.example' },
);
