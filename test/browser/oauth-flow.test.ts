import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createClient, type ClientView } from '../../src/modules/oauth/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, describeInBrowser } from '../helpers/browser.js';
import { freePort } from '../helpers/processes.js';

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
/** The server's clock runs this far ahead of the real one: bearer checks are cached for 5 s. */
let skew = 0;

interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  scope: string;
}

/**
 * The whole OAuth flow in a real headless Chromium. A small HTTP server on 127.0.0.1 plays the
 * client's redirect URI and records what it is sent. The browser opens `/oauth/authorize` (PKCE
 * S256, a state), is sent to sign in, signs in, reads the consent page (the client and its scopes),
 * clicks Allow and lands on the redirect URI with a code and the same state; no Content Security
 * Policy violation blocks that redirect (the consent page widens form-action to the client's
 * origin). The test then plays the client: code (+ verifier) for tokens, an API call, a refresh
 * (a new pair), the old refresh token reused (refused, the family revoked, the new access token
 * refused too), and, after a second consent, revocation (RFC 7009).
 */
describeInBrowser('headless Chromium', () =>
  describeApi(
    'the OAuth flow in a browser',
    (ctx) => {
      let browser: Browser;
      let page: Page;
      let callback: Server;
      let redirectUri: string;
      let client: ClientView;
      const received: Array<Record<string, string>> = [];
      const cspViolations: string[] = [];
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');

      const form = async (path: string, fields: Record<string, string>) => {
        const response = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const credentials = () => ({ client_id: client.clientId, client_secret: client.clientSecret! });
      const callApi = async (token: string) => {
        const response = await fetch(`${origin}/v3/app`, { headers: { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId } });
        return { status: response.status, body: (await response.json()) as { success: boolean; error_code: number } };
      };
      /** Opens the authorization request in the browser, (signs in,) allows, and returns what the redirect URI was sent. */
      const consent = async (state: string, signIn: boolean) => {
        const query = new URLSearchParams({ response_type: 'code', client_id: client.clientId, redirect_uri: redirectUri, scope: 'app:get record:list', state, code_challenge: challenge, code_challenge_method: 'S256' });
        await page.goto(`${origin}/oauth/authorize?${query}`);
        if (signIn) {
          expect(new URL(page.url()).pathname).toBe('/sign-in');
          await page.getByLabel('Email').fill(ctx.setup.owner.email);
          await page.getByLabel('Password').fill(ctx.setup.owner.password);
          await Promise.all([page.waitForURL((url) => url.pathname === '/oauth/authorize'), page.getByRole('button', { name: 'Sign in' }).click()]);
        }
        expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
        expect(await page.locator('#client-name').textContent()).toBe('Browser CRM');
        expect(await page.locator('#scopes li').allTextContents()).toEqual(['app:get', 'record:list']);
        expect(await page.locator('#signed-in-email').textContent()).toBe(ctx.setup.owner.email);
        const before = received.length;
        await Promise.all([page.waitForURL((url) => url.href.startsWith(redirectUri)), page.getByRole('button', { name: 'Allow' }).click()]);
        expect(await page.locator('body').textContent()).toBe('client got it');
        expect(received).toHaveLength(before + 1);
        return received[before];
      };

      beforeAll(async () => {
        callback = createServer((request, response) => {
          const url = new URL(request.url!, 'http://127.0.0.1');
          // The browser also asks for /favicon.ico: only the redirect URI's visits are the client's.
          if (url.pathname === '/callback') received.push(Object.fromEntries(url.searchParams));
          response.writeHead(200, { 'content-type': 'text/plain' }).end('client got it');
        });
        await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
        redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
        client = await createClient(ctx.database.db, ctx.setup.organizationId, { name: 'Browser CRM', redirectUris: [redirectUri], scopes: ['app:get', 'record:list'] }, Date.now());
        await ctx.app.listen({ port, host: '127.0.0.1' });
        browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
        const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
        await context.exposeBinding('reportViolation', (_source, text: string) => cspViolations.push(text));
        // Every page reports its policy violations (the redirect after Allow is checked against form-action).
        await context.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (event) => window.reportViolation(event.violatedDirective + ' ' + event.blockedURI));" });
        page = await context.newPage();
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
        });
      });
      afterAll(async () => {
        await browser?.close();
        await new Promise((resolve) => callback?.close(resolve));
      });

      it('signs in, consents, and the client gets a code with its state, then tokens, an API call, a refresh, reuse detection', async () => {
        const answer = await consent('s1 /?&=x', true);
        expect(answer.state).toBe('s1 /?&=x');
        expect(answer.code).toMatch(/^oac_/);
        expect(answer.error).toBeUndefined();

        const tokens = await form('/oauth/token', { grant_type: 'authorization_code', code: answer.code, redirect_uri: redirectUri, code_verifier: verifier, ...credentials() });
        expect(tokens.status).toBe(200);
        const first = tokens.body as unknown as TokenPair;
        expect(first).toMatchObject({ token_type: 'Bearer', scope: 'app:get record:list' });
        expect(first.access_token).toMatch(/^oat_/);
        expect(first.refresh_token).toMatch(/^ort_/);
        expect(await callApi(first.access_token)).toMatchObject({ status: 200, body: { success: true } });

        const rotated = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, ...credentials() });
        expect(rotated.status).toBe(200);
        const second = rotated.body as unknown as TokenPair;
        expect(second.access_token).not.toBe(first.access_token);
        expect(second.refresh_token).not.toBe(first.refresh_token);
        expect(await callApi(second.access_token)).toMatchObject({ status: 200, body: { success: true } });

        const reused = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token, ...credentials() });
        expect(reused).toMatchObject({ status: 400, body: { success: false, error_code: 600103, error: 'invalid_grant' } });
        skew += 6_000;
        expect(await callApi(second.access_token)).toMatchObject({ status: 401, body: { error_code: 600101 } });
        expect(cspViolations).toEqual([]);
      });

      it('consents again (already signed in) and revokes the new tokens (RFC 7009)', async () => {
        const answer = await consent('second', false);
        expect(answer.state).toBe('second');
        const tokens = await form('/oauth/token', { grant_type: 'authorization_code', code: answer.code, redirect_uri: redirectUri, code_verifier: verifier, ...credentials() });
        const pair = tokens.body as unknown as TokenPair;
        expect(await callApi(pair.access_token)).toMatchObject({ status: 200 });
        const revoked = await form('/oauth/revoke', { token: pair.access_token, token_type_hint: 'access_token', ...credentials() });
        expect(revoked.status).toBe(200);
        expect(await callApi(pair.access_token)).toMatchObject({ status: 401, body: { error_code: 600101 } });
        expect((await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: pair.refresh_token, ...credentials() })).body).toMatchObject({ error_code: 600101 });
        // Revoking what is already revoked, or unknown, is not an error (RFC 7009 §2.2).
        expect((await form('/oauth/revoke', { token: pair.refresh_token, ...credentials() })).status).toBe(200);
        expect(cspViolations).toEqual([]);
      });
    },
    { PUBLIC_URL: origin },
    { clock: () => Date.now() + skew },
  ),
);
