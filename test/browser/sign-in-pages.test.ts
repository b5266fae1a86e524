import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeApi } from '../helpers/api-harness.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, describeInBrowser } from '../helpers/browser.js';
import { freePort } from '../helpers/processes.js';
import { makeSheet } from '../helpers/record-fixtures.js';

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;

/**
 * The sign-in and settings pages in a real headless Chromium: a wrong password, signing in, a
 * token made on the settings page and read from it, the API called with it (Bearer + SVC-Appid),
 * the token revoked on the page and refused at once (10105), and sign-out; then the API called with
 * `fetch` from the settings page through the session (writes with the CSRF token the page shows).
 * The page's style sheet is allowed by the policy and no policy violation is reported.
 */
describeInBrowser('headless Chromium', () =>
  describeApi(
    'sign-in pages in a browser',
    (ctx) => {
      let browser: Browser;
      let context: BrowserContext;
      let page: Page;
      const cspViolations: string[] = [];
      const callApi = async (token: string) => {
        const response = await fetch(`${origin}/v3/app`, { headers: { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId } });
        return { status: response.status, body: (await response.json()) as { success: boolean; error_code: number } };
      };

      beforeAll(async () => {
        await ctx.app.listen({ port, host: '127.0.0.1' });
        browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
        context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
        page = await context.newPage();
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
        });
      });
      afterAll(async () => {
        await browser?.close();
      });

      it('says a wrong password is wrong, without saying more', async () => {
        await page.goto(`${origin}/settings`);
        expect(new URL(page.url()).pathname).toBe('/sign-in');
        await page.getByLabel('Email').fill(ctx.setup.owner.email);
        await page.getByLabel('Password').fill('not it at all');
        const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
        expect(answer.status()).toBe(401);
        expect(await page.getByRole('alert').textContent()).toBe('Email or password is wrong.');
        expect(await page.evaluate('getComputedStyle(document.querySelector(".error")).color')).toBe('rgb(207, 34, 46)');
      });

      it('signs in, makes a token on the settings page, calls the API with it, revokes it, and signs out', async () => {
        await page.getByLabel('Email').fill(ctx.setup.owner.email);
        await page.getByLabel('Password').fill(ctx.setup.owner.password);
        await Promise.all([page.waitForURL(`${origin}/settings`), page.getByRole('button', { name: 'Sign in' }).click()]);
        expect(await page.locator('#signed-in-email').textContent()).toBe(ctx.setup.owner.email);
        const [cookie] = (await context.cookies(origin)).filter((c) => c.name === 'tabularium_session');
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });

        await page.getByLabel('Name').fill('browser script');
        await page.getByLabel('app:get').check();
        await page.getByLabel('in 7 days').check();
        await Promise.all([page.waitForURL(`${origin}/settings/tokens`), page.getByRole('button', { name: 'Create token' }).click()]);
        const token = (await page.locator('#new-token').textContent())!;
        expect(token).toMatch(/^pat_[A-Za-z0-9_-]{32}$/);
        expect(await callApi(token)).toMatchObject({ status: 200, body: { success: true } });

        await page.getByRole('link', { name: 'Back to settings' }).click();
        const row = page.locator('tr', { hasText: 'browser script' });
        expect(await row.locator('[data-status]').textContent()).toBe('active');
        expect(await page.locator('body').textContent()).not.toContain(token);
        await Promise.all([page.waitForURL(`${origin}/settings?done=revoked`), row.getByRole('button', { name: 'Revoke browser script' }).click()]);
        expect(await page.getByRole('status').textContent()).toContain('revoked');
        expect(await page.locator('tr', { hasText: 'browser script' }).locator('[data-status]').textContent()).toBe('revoked');
        expect(await callApi(token)).toMatchObject({ status: 401, body: { error_code: 10105 } });

        await Promise.all([page.waitForURL(`${origin}/sign-in?out`), page.getByRole('button', { name: 'Sign out' }).click()]);
        expect(await page.getByRole('status').textContent()).toBe('You have signed out.');
        expect((await context.cookies(origin)).some((c) => c.name === 'tabularium_session')).toBe(false);
        await page.goto(`${origin}/settings`);
        expect(new URL(page.url()).pathname).toBe('/sign-in');
        expect(cspViolations).toEqual([]);
      });

      it('calls the API through the session from the settings page: reads with the cookie, writes with the CSRF token it shows', async () => {
        const sheet = await makeSheet(ctx, 'Browser orders', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
        await page.goto(`${origin}/sign-in`);
        await page.getByLabel('Email').fill(ctx.setup.owner.email);
        await page.getByLabel('Password').fill(ctx.setup.owner.password);
        await Promise.all([page.waitForURL(`${origin}/settings`), page.getByRole('button', { name: 'Sign in' }).click()]);
        const csrfToken = (await page.locator('#api-csrf-token').textContent())!;
        expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
        // What a person types in the browser's console on this page: same-origin fetches carry the cookie.
        const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
          page.evaluate(
            async ({ method, path, headers, body }) => {
              const response = await fetch(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
              return { status: response.status, body: (await response.json()) as { error_code: number; error_msg: string; data: { total?: number } } };
            },
            { method, path, headers, body },
          );
        const appId = { 'SVC-Appid': ctx.setup.app.appId };
        expect(await call('GET', '/v3/app', appId)).toMatchObject({ status: 200, body: { error_code: 1 } });
        const record = { fields: [{ id: 'title', value: 'from the console' }] };
        expect(await call('POST', `/v3/app/worksheets/${sheet.id}/rows`, appId, record)).toMatchObject({ status: 403, body: { error_code: 10005 } });
        expect(await call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { ...appId, 'X-CSRF-Token': csrfToken }, record)).toMatchObject({ status: 200, body: { error_code: 1 } });
        expect(await call('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { ...appId, 'X-CSRF-Token': csrfToken }, {})).toMatchObject({ body: { data: { total: 1 } } });
        expect(cspViolations).toEqual([]);
      });
    },
    { PUBLIC_URL: origin },
  ),
);
