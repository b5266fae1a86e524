import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { createClient, setClientEnabled, type ClientView } from '../../src/modules/oauth/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { addPerson } from '../helpers/people.js';
import { csrfOf, WebClient } from '../helpers/web-client.js';

/**
 * The OAuth 2.0 provider over HTTP: consent (signed in, CSRF-checked), codes with PKCE, the token
 * endpoint (600xxx codes with the RFC `error`), rotating refresh tokens with reuse detection,
 * revocation, metadata, the bearer strategy, and the admin API. The clock is the test's.
 */

let now = Date.UTC(2026, 10, 25, 12, 0, 0);
const REDIRECT = 'http://127.0.0.1:9/callback';
const verifier = 'v'.repeat(50);
const challenge = createHash('sha256').update(verifier).digest('base64url');

describeApi(
  'OAuth 2.0 provider',
  (ctx) => {
    let confidential: ClientView;
    let publicClient: ClientView;
    const form = (fields: Record<string, string>, headers: Record<string, string> = {}, url = '/oauth/token') =>
      ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });
    const authorizeUrl = (client: ClientView, extra: Record<string, string> = {}) =>
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'app:get record:list', state: 'xyz 1/2', code_challenge: challenge, code_challenge_method: 'S256', ...extra })}`;
    const signedIn = async (email = ctx.setup.owner.email, password = ctx.setup.owner.password) => {
      const web = new WebClient(ctx.app);
      expect((await web.signIn(email, password)).status).toBe(303);
      return web;
    };
    /** Consent as the owner (or as `web`'s person): the code from the redirect. */
    const codeFor = async (client: ClientView, extra: Record<string, string> = {}, web?: WebClient) => {
      web ??= await signedIn();
      const page = await web.get(authorizeUrl(client, extra));
      expect(page.status).toBe(200);
      const fields = Object.fromEntries(new URL(`http://x${authorizeUrl(client, extra)}`).searchParams);
      const answer = await web.post('/oauth/authorize', { ...fields, _csrf: csrfOf(page.body), decision: 'allow' });
      expect(answer.status).toBe(303);
      const location = new URL(answer.location!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('state')).toBe(extra.state ?? 'xyz 1/2');
      return location.searchParams.get('code')!;
    };
    const exchange = (client: ClientView, code: string, extra: Record<string, string> = {}) =>
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}), code_verifier: verifier, ...extra });
    const refresh = (client: ClientView, token: string) =>
      form({ grant_type: 'refresh_token', refresh_token: token, client_id: client.clientId, ...(client.clientSecret ? { client_secret: client.clientSecret } : {}) });
    const callApi = (token: string) => ctx.call('GET', '/v3/app', undefined, { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId });

    beforeAll(async () => {
      const db = ctx.database.db;
      confidential = await createClient(db, ctx.setup.organizationId, { name: 'CRM sync', redirectUris: [REDIRECT], scopes: ['app:get', 'record:list'] }, now);
      publicClient = await createClient(db, ctx.setup.organizationId, { name: 'Phone app', redirectUris: [REDIRECT], scopes: ['app:get', 'record:list'], public: true }, now);
    });

    it('runs the whole flow: consent, code, token, API call, refresh (rotating), reuse detection, revocation', async () => {
      const code = await codeFor(confidential);
      const tokens = await exchange(confidential, code);
      expect(tokens.statusCode).toBe(200);
      const body = tokens.json<{ access_token: string; refresh_token: string; expires_in: number; token_type: string; scope: string }>();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'app:get record:list' });
      expect(body.access_token).toMatch(/^oat_/);
      expect(body.refresh_token).toMatch(/^ort_/);
      expect((await callApi(body.access_token)).body).toMatchObject({ success: true });

      const rotated = await refresh(confidential, body.refresh_token);
      expect(rotated.statusCode).toBe(200);
      const second = rotated.json<{ access_token: string; refresh_token: string }>();
      expect(second.refresh_token).not.toBe(body.refresh_token);
      expect((await callApi(second.access_token)).body).toMatchObject({ success: true });

      const reused = await refresh(confidential, body.refresh_token);
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toMatchObject({ success: false, error_code: 600103, error: 'invalid_grant' });
      // The whole family is revoked: the newer refresh token and access token too.
      expect((await refresh(confidential, second.refresh_token)).json()).toMatchObject({ error_code: 600101, error: 'invalid_grant' });
      now += 6_000;
      expect((await callApi(second.access_token)).body).toMatchObject({ error_code: 600101 });

      const fresh = (await exchange(confidential, await codeFor(confidential))).json<{ access_token: string; refresh_token: string }>();
      const revoked = await form({ token: fresh.refresh_token, client_id: confidential.clientId, client_secret: confidential.clientSecret! }, {}, '/oauth/revoke');
      expect(revoked.statusCode).toBe(200);
      expect((await callApi(fresh.access_token)).body).toMatchObject({ error_code: 600101 });
    });

    it('refuses a replayed code (600002) and revokes what the code gave', async () => {
      const code = await codeFor(confidential);
      const first = (await exchange(confidential, code)).json<{ access_token: string }>();
      const replay = await exchange(confidential, code);
      expect(replay.json()).toMatchObject({ error_code: 600002, error: 'invalid_grant' });
      now += 6_000;
      expect((await callApi(first.access_token)).body).toMatchObject({ error_code: 600101 });
    });

    it('codes expire after 60 s; access tokens after an hour (600100)', async () => {
      const code = await codeFor(confidential);
      now += 61_000;
      expect((await exchange(confidential, code)).json()).toMatchObject({ error_code: 600002, error_msg: 'this authorization code expired' });
      const tokens = (await exchange(confidential, await codeFor(confidential))).json<{ access_token: string }>();
      now += 3_600_000;
      const expired = await callApi(tokens.access_token);
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ error_code: 600100 });
      expect((await callApi('oat_unknown')).body).toMatchObject({ error_code: 600100 });
    });

    it('checks PKCE: required of public clients, plain refused, the verifier must match', async () => {
      const web = await signedIn();
      const noPkce = await web.get(authorizeUrl(publicClient, { code_challenge: '', code_challenge_method: '' }).replace(/&code_challenge=&code_challenge_method=/, ''));
      expect(noPkce.status).toBe(303);
      expect(Object.fromEntries(new URL(noPkce.location!).searchParams)).toMatchObject({ error: 'invalid_request', error_code: '600000', state: 'xyz 1/2' });
      const plain = await web.get(authorizeUrl(publicClient, { code_challenge_method: 'plain' }));
      expect(new URL(plain.location!).searchParams.get('error_code')).toBe('600000');
      const code = await codeFor(publicClient);
      expect((await exchange(publicClient, code, { code_verifier: 'w'.repeat(50) })).json()).toMatchObject({ error_code: 600002, error: 'invalid_grant' });
      const ok = await exchange(publicClient, await codeFor(publicClient));
      expect(ok.statusCode).toBe(200);
    });

    it('matches redirect URIs exactly (600001, never redirected) and names unknown and disabled clients', async () => {
      for (const uri of [`${REDIRECT}/x`, 'http://127.0.0.1:9/callback?x=1', 'http://evil.example/callback']) {
        const page = await ctx.app.inject({ method: 'GET', url: authorizeUrl(confidential, { redirect_uri: uri }) });
        expect(page.statusCode).toBe(400);
        expect(page.headers.location).toBeUndefined();
        expect(page.body).toContain('600001');
      }
      const code = await codeFor(confidential);
      expect((await exchange(confidential, code, { redirect_uri: `${REDIRECT}/x` })).json()).toMatchObject({ error_code: 600001 });
      expect((await ctx.app.inject({ method: 'GET', url: authorizeUrl({ ...confidential, clientId: 'nope' }) })).body).toContain('600302');
      expect((await ctx.app.inject({ method: 'GET', url: authorizeUrl(confidential, { state: 'x'.repeat(2000) }) })).body).toContain('600004');
      const unknownScope = await ctx.app.inject({ method: 'GET', url: authorizeUrl(confidential, { scope: 'record:list nope:x' }) });
      expect(new URL(unknownScope.headers.location as string).searchParams.get('error_code')).toBe('600311');
      const outside = await ctx.app.inject({ method: 'GET', url: authorizeUrl(confidential, { scope: 'record:delete' }) });
      expect(new URL(outside.headers.location as string).searchParams.get('error_code')).toBe('600311');
    });

    it('Deny sends 600003 back with state; the consent form needs its CSRF token', async () => {
      const web = await signedIn();
      const page = await web.get(authorizeUrl(confidential));
      expect(page.body).toContain('CRM sync');
      expect(page.body).toContain('record:list');
      const fields = Object.fromEntries(new URL(`http://x${authorizeUrl(confidential)}`).searchParams);
      const forged = await web.post('/oauth/authorize', { ...fields, decision: 'allow' });
      expect(forged.status).toBe(403);
      expect(forged.location).toBeUndefined();
      const denied = await web.post('/oauth/authorize', { ...fields, _csrf: csrfOf(page.body), decision: 'deny' });
      expect(Object.fromEntries(new URL(denied.location!).searchParams)).toMatchObject({ error: 'access_denied', error_code: '600003', state: 'xyz 1/2' });
    });

    it('authenticates clients in constant time (600112), checks their addresses (600113) and state (600300)', async () => {
      const code = await codeFor(confidential);
      const wrong = await exchange(confidential, code, { client_secret: `${confidential.clientSecret!.slice(0, -1)}A` });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error_code: 600112, error: 'invalid_client' });
      const fenced = await createClient(ctx.database.db, ctx.setup.organizationId, { name: 'Fenced', redirectUris: [REDIRECT], scopes: ['app:get'], allowedIps: ['10.0.0.0/8'] }, now);
      const outside = await form({ grant_type: 'refresh_token', refresh_token: 'ort_x', client_id: fenced.clientId, client_secret: fenced.clientSecret! });
      expect(outside.json()).toMatchObject({ error_code: 600113, error: 'invalid_client' });
      const tokens = (await exchange(confidential, await codeFor(confidential))).json<{ access_token: string; refresh_token: string }>();
      await setClientEnabled(ctx.database.db, null, confidential.clientId, false);
      now += 6_000;
      expect((await callApi(tokens.access_token)).body).toMatchObject({ error_code: 600300 });
      expect((await refresh(confidential, tokens.refresh_token)).json()).toMatchObject({ error_code: 600300 });
      expect((await ctx.app.inject({ method: 'GET', url: authorizeUrl(confidential) })).body).toContain('600300');
      await setClientEnabled(ctx.database.db, null, confidential.clientId, true);
    });

    it('narrows calls to the grant scopes (600320) and refuses wider scopes on refresh (600312)', async () => {
      const tokens = (await exchange(confidential, await codeFor(confidential, { scope: 'app:get' }))).json<{ access_token: string; refresh_token: string }>();
      const list = await ctx.call('POST', '/v3/app/worksheets/list', {}, { authorization: `Bearer ${tokens.access_token}`, 'SVC-Appid': ctx.setup.app.appId });
      expect(list.body).toMatchObject({ error_code: 600320 });
      const wider = await form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: confidential.clientId, client_secret: confidential.clientSecret!, scope: 'app:get record:list' });
      expect(wider.json()).toMatchObject({ error_code: 600312, error: 'invalid_scope' });
    });

    it('refuses at consent a person who is not a member of the client\'s organization (600320, sent back with state)', async () => {
      const email = `outsider-${ctx.engine}@example.com`;
      await addPerson(ctx, email, 'outsider password', { now, membership: 'none' });
      const web = await signedIn(email, 'outsider password');
      const page = await web.get(authorizeUrl(confidential));
      expect(page.status).toBe(303);
      const refusal = new URL(page.location!);
      expect(`${refusal.origin}${refusal.pathname}`).toBe(REDIRECT);
      expect(Object.fromEntries(refusal.searchParams)).toMatchObject({ error: 'access_denied', error_code: '600320', state: 'xyz 1/2' });
      expect(refusal.searchParams.has('code')).toBe(false);
      // Nor can the consent form be posted past the page.
      const fields = Object.fromEntries(new URL(`http://x${authorizeUrl(confidential)}`).searchParams);
      const forced = await web.post('/oauth/authorize', { ...fields, _csrf: csrfOf((await web.get('/settings')).body), decision: 'allow' });
      expect(new URL(forced.location!).searchParams.get('error_code')).toBe('600320');
    });

    it("refuses the tokens of a person who was disabled (600101), on the API and at refresh", async () => {
      const email = `leaver-${ctx.engine}@example.com`;
      const accountId = await addPerson(ctx, email, 'leaver password', { now, membership: 'admin' });
      const tokens = (await exchange(confidential, await codeFor(confidential, {}, await signedIn(email, 'leaver password')))).json<{ access_token: string; refresh_token: string }>();
      expect((await callApi(tokens.access_token)).body).toMatchObject({ success: true });
      await ctx.database.db.updateTable('accounts').set({ status: 2 }).where('id', '=', accountId).execute();
      now += 6_000;
      const refused = await callApi(tokens.access_token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error_code: 600101 });
      expect((await refresh(confidential, tokens.refresh_token)).json()).toMatchObject({ error_code: 600101, error: 'invalid_grant' });
    });

    it('answers a grant type no client is allowed with 600302 (unauthorized_client), and an unknown one with 600000 (invalid_request)', async () => {
      const post = (grant_type: string) => form({ grant_type, client_id: confidential.clientId, client_secret: confidential.clientSecret!, username: ctx.setup.owner.email, password: ctx.setup.owner.password, scope: 'app:get' });
      for (const grant_type of ['client_credentials', 'password']) {
        const answer = await post(grant_type);
        expect(answer.statusCode, grant_type).toBe(400);
        expect(answer.json(), grant_type).toMatchObject({ success: false, error_code: 600302, error: 'unauthorized_client' });
        expect(answer.json<{ access_token?: string }>().access_token, grant_type).toBeUndefined();
      }
      // The library names a grant type it does not know an invalid request.
      expect((await post('madeup')).json()).toMatchObject({ error_code: 600000, error: 'invalid_request', error_msg: '`grant_type` is invalid' });
      expect((await form({ client_id: confidential.clientId, client_secret: confidential.clientSecret! })).json()).toMatchObject({ error_code: 600000, error: 'invalid_request' });
    });

    it('publishes its metadata (RFC 8414) and registers clients through the admin API', async () => {
      const meta = await ctx.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
      expect(meta.json()).toMatchObject({ code_challenge_methods_supported: ['S256'], grant_types_supported: ['authorization_code', 'refresh_token'] });
      expect(meta.json<{ token_endpoint: string }>().token_endpoint).toMatch(/\/oauth\/token$/);
      const web = await signedIn();
      const pat = await web.submit('/settings', '/settings/tokens', { name: 'admin', allScopes: 'on', expires: 'never', apps: 'all' });
      const token = /id="new-token"[^>]*>([^<]+)</.exec(pat.body)![1];
      const admin = { authorization: `Bearer ${token}` };
      const created = await ctx.call<ClientView>('POST', '/admin/oauth-clients', { name: 'Via API', redirectUris: [REDIRECT], scopes: ['record:list'] }, admin);
      expect(created.body.data).toMatchObject({ name: 'Via API', enabled: true, public: false });
      expect(created.body.data.clientSecret).toMatch(/^ocs_/);
      const bad = await ctx.call('POST', '/admin/oauth-clients', { name: 'Bad', redirectUris: [REDIRECT], scopes: ['nope:x'] }, admin);
      expect(bad.body).toMatchObject({ error_code: 600311 });
      const listed = await ctx.call<ClientView[]>('GET', '/admin/oauth-clients', undefined, admin);
      expect(listed.body.data.map((c) => c.name)).toContain('Via API');
      expect(JSON.stringify(listed.body.data)).not.toContain(created.body.data.clientSecret);
      const disabled = await ctx.call<ClientView>('PATCH', `/admin/oauth-clients/${created.body.data.clientId}`, { enabled: false }, admin);
      expect(disabled.body.data.enabled).toBe(false);
    });
  },
  {},
  { clock: () => now },
);
