import { expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/modules/sign-in/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { capturedLog } from '../helpers/captured-log.js';
import { csrfOf, WebClient } from '../helpers/web-client.js';

/** Every line the server logs in this file, at the most talkative level. */
const captured = capturedLog();

/**
 * No password, token or session id reaches the log: the flows of the pages (a failed and a right
 * sign-in, a refused and a done password change, a token made, used, revoked, used again, a
 * refused CSRF token, sign-out) run with the log at `trace`, and the captured text is searched.
 */
describeApi(
  'sign-in pages and the log',
  (ctx) => {
    it('logs neither the passwords, nor the token, nor the session id', async () => {
      const web = new WebClient(ctx.app);
      const secrets: string[] = [ctx.setup.owner.password, 'Wrong-Password-1234', 'Second-Password-5678'];
      expect((await web.signIn(ctx.setup.owner.email, 'Wrong-Password-1234')).status).toBe(401);
      expect((await web.signIn(ctx.setup.owner.email, ctx.setup.owner.password)).status).toBe(303);
      secrets.push(web.jar.get(SESSION_COOKIE)!, decodeURIComponent(web.jar.get(SESSION_COOKIE)!).split('.')[0]);
      expect((await web.submit('/settings', '/settings/password', { current: 'Wrong-Password-1234', password: 'Second-Password-5678', confirm: 'Second-Password-5678' })).status).toBe(400);
      expect((await web.submit('/settings', '/settings/password', { current: ctx.setup.owner.password, password: 'Second-Password-5678', confirm: 'Second-Password-5678' })).status).toBe(303);
      const created = await web.submit('/settings', '/settings/tokens', { name: 'logged?', scopes: 'app:get', expires: 'never', apps: 'all' });
      const token = /<code id="new-token"[^>]*>(pat_[A-Za-z0-9_-]+)<\/code>/.exec(created.body)![1];
      secrets.push(token);
      const headers = { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId };
      expect((await ctx.call('GET', '/v3/app', undefined, headers)).body.success).toBe(true);
      const settings = await web.get('/settings');
      const tokenId = /<tr data-token="([0-9a-f]{24})">/.exec(settings.body)![1];
      expect((await web.post(`/settings/tokens/${tokenId}/revoke`, { _csrf: csrfOf(settings.body) })).status).toBe(303);
      expect((await ctx.call('GET', '/v3/app', undefined, headers)).body.error_code).toBe(10105);
      expect((await web.post('/sign-out', { _csrf: 'forged' })).status).toBe(403);
      expect((await web.submit('/settings', '/sign-out', {})).status).toBe(303);

      const log = captured.text();
      // The log was on and saw these requests, so an empty search would mean something.
      expect(log).toContain('/settings/tokens');
      expect(log).toContain('Invalid csrf token');
      for (const secret of secrets) expect(log.includes(secret), `the log holds ${secret.slice(0, 6)}…`).toBe(false);
    });
  },
  { LOG_LEVEL: 'trace' },
  { logger: { level: 'trace', stream: captured.stream } },
);
