import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createClient } from '../../src/modules/oauth/index.js';
import { SESSION_COOKIE } from '../../src/modules/sign-in/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { capturedLog } from '../helpers/captured-log.js';
import { csrfOf, WebClient } from '../helpers/web-client.js';

const captured = capturedLog();
const REDIRECT = 'http://127.0.0.1:9/back';

/**
 * No credential of any kind reaches the log, at `trace`: a password (wrong and right) at sign-in,
 * the session id, a CSRF token, a personal access token made and used (with Bearer and bare), the
 * OAuth flow (code, PKCE verifier, access and refresh tokens, client secret; a wrong secret, a
 * refresh, a reused refresh token, a revocation), and app-key calls (secret key, Sign, a wrong Sign).
 */
describeApi(
  'credentials and the log',
  (ctx) => {
    it('logs no password, session id, CSRF token, PAT, OAuth code, token or client secret, app key secret or Sign', async () => {
      const now = Date.now();
      const web = new WebClient(ctx.app);
      const secrets: Record<string, string> = { password: ctx.setup.owner.password, 'wrong password': 'Nearly-The-Password-42', 'app secret key': ctx.setup.app.secretKey, Sign: ctx.setup.app.sign };

      expect((await web.signIn(ctx.setup.owner.email, secrets['wrong password'])).status).toBe(401);
      expect((await web.signIn(ctx.setup.owner.email, ctx.setup.owner.password)).status).toBe(303);
      secrets['session cookie'] = web.jar.get(SESSION_COOKIE)!;
      secrets['session id'] = decodeURIComponent(secrets['session cookie']).split('.')[0];

      const settings = await web.get('/settings');
      secrets['CSRF token'] = csrfOf(settings.body);
      const created = await web.post('/settings/tokens', { _csrf: secrets['CSRF token'], name: 'logged?', scopes: 'app:get', expires: 'never', apps: 'all' });
      secrets.PAT = /id="new-token"[^>]*>(pat_[A-Za-z0-9_-]+)</.exec(created.body)![1];
      expect((await ctx.call('GET', '/v3/app', undefined, { authorization: `Bearer ${secrets.PAT}`, 'SVC-Appid': ctx.setup.app.appId })).status).toBe(200);
      expect((await ctx.call('GET', '/v3/app', undefined, { authorization: secrets.PAT, 'SVC-Appid': ctx.setup.app.appId })).status).toBe(200);

      const client = await createClient(ctx.database.db, ctx.setup.organizationId, { name: 'Logged CRM', redirectUris: [REDIRECT], scopes: ['app:get'] }, now);
      secrets['client secret'] = client.clientSecret!;
      secrets['PKCE verifier'] = randomBytes(32).toString('base64url');
      const request = { response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, scope: 'app:get', state: 'st', code_challenge: createHash('sha256').update(secrets['PKCE verifier']).digest('base64url'), code_challenge_method: 'S256' };
      const consent = await web.get(`/oauth/authorize?${new URLSearchParams(request)}`);
      const allowed = await web.post('/oauth/authorize', { ...request, _csrf: csrfOf(consent.body), decision: 'allow' });
      secrets['OAuth code'] = new URL(allowed.location!).searchParams.get('code')!;
      const token = (fields: Record<string, string>, url = '/oauth/token') =>
        ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ client_id: client.clientId, client_secret: client.clientSecret!, ...fields }).toString() });
      const wrongSecret = await token({ grant_type: 'authorization_code', code: secrets['OAuth code'], redirect_uri: REDIRECT, code_verifier: secrets['PKCE verifier'], client_secret: `${client.clientSecret!.slice(0, -2)}zz` });
      expect(wrongSecret.json()).toMatchObject({ error_code: 600112 });
      const first = (await token({ grant_type: 'authorization_code', code: secrets['OAuth code'], redirect_uri: REDIRECT, code_verifier: secrets['PKCE verifier'] })).json<{ access_token: string; refresh_token: string }>();
      secrets['access token'] = first.access_token;
      secrets['refresh token'] = first.refresh_token;
      expect((await ctx.call('GET', '/v3/app', undefined, { authorization: `Bearer ${first.access_token}`, 'SVC-Appid': ctx.setup.app.appId })).status).toBe(200);
      const second = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).json<{ access_token: string; refresh_token: string }>();
      secrets['second access token'] = second.access_token;
      secrets['second refresh token'] = second.refresh_token;
      expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).json()).toMatchObject({ error_code: 600103 });
      expect((await token({ token: second.access_token }, '/oauth/revoke')).statusCode).toBe(200);

      expect((await ctx.call('GET', '/v3/app')).status).toBe(200);
      const wrongSign = `${ctx.setup.app.sign.slice(0, -4)}AAA=`;
      secrets['wrong Sign'] = wrongSign;
      expect((await ctx.call('GET', '/v3/app', undefined, { ...ctx.auth, 'SVC-Sign': wrongSign })).body.error_code).toBe(10102);

      const log = captured.text();
      // The log was on and saw these requests, so finding nothing means something.
      for (const seen of ['/sign-in', '/settings/tokens', '/oauth/authorize', '/oauth/token', '/oauth/revoke', '/v3/app']) expect(log).toContain(seen);
      for (const [name, secret] of Object.entries(secrets)) expect(log.includes(secret), `the log holds the ${name}`).toBe(false);
    });
  },
  { LOG_LEVEL: 'trace' },
  { logger: { level: 'trace', stream: captured.stream } },
);
