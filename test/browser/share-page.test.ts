import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeApi } from '../helpers/api-harness.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, describeInBrowser } from '../helpers/browser.js';
import { freePort } from '../helpers/processes.js';
import type { Sheet } from '../helpers/record-fixtures.js';
import { makeSharedRecord, shareRecord, SHARED_FILE_TEXT } from '../helpers/share-fixtures.js';

const START = Date.UTC(2024, 2, 1, 8, 0, 0);
let now = START;
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const SCREENSHOTS = join(process.cwd(), 'test-output');

/**
 * Distinct colours and the share of pixels unlike the top-left one, decoded by the browser's own
 * PNG decoder (a canvas on about:blank). Written as page source: the tests are typed without the DOM.
 */
const PIXEL_STATS = `async (dataUrl) => {
  const image = new Image();
  image.src = dataUrl;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const first = (pixels[0] << 16) | (pixels[1] << 8) | pixels[2];
  const colours = new Set();
  let differing = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const colour = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    colours.add(colour);
    if (colour !== first) differing++;
  }
  return { colours: colours.size, differing: differing / (pixels.length / 4) };
}`;

async function pixelStats(page: Page, png: Buffer): Promise<{ colours: number; differing: number }> {
  await page.goto('about:blank');
  return page.evaluate(`(${PIXEL_STATS})(${JSON.stringify(`data:image/png;base64,${png.toString('base64')}`)})`);
}

/**
 * The share page in a real headless Chromium (Debian's, driven by playwright-core): visible and
 * hidden fields, the escaped `<script>` value (shown as text, never run), the style sheet the CSP
 * allows by its hash actually applied, a file downloaded without an account, the password form,
 * an expired link, and a screenshot that is not blank.
 */
describeInBrowser('headless Chromium', () =>
  describeApi(
    'share page in a browser',
    (ctx) => {
      let browser: Browser;
      let context: BrowserContext;
      let page: Page;
      let sheet: Sheet;
      let rowId: string;
      const dialogs: string[] = [];
      const cspViolations: string[] = [];

      beforeAll(async () => {
        now = START;
        await ctx.app.listen({ port, host: '127.0.0.1' });
        ({ sheet, rowId } = await makeSharedRecord(ctx, 'Orders'));
        browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
        context = await browser.newContext({ acceptDownloads: true, viewport: { width: 900, height: 700 } });
        page = await context.newPage();
        page.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
        page.on('console', (message) => {
          if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
        });
      });
      afterAll(async () => {
        await browser?.close();
      });

      it('shows the visible fields formatted for people, and nothing of the hidden ones', async () => {
        const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title', 'status', 'meeting', 'paid', 'owner', 'files', 'notes'] });
        const response = await page.goto(link.url);
        expect(response!.status()).toBe(200);
        expect(await page.locator('h1').textContent()).toBe('ACME order');
        expect(await page.locator('dt').allTextContents()).toEqual(['Title', 'Status', 'Meeting', 'Paid', 'Owner', 'Files', 'Notes']);
        const value = (alias: string) => page.locator(`dd[data-field="${sheet.field[alias]}"]`).textContent();
        expect(await value('status')).toBe('Done');
        expect(await value('meeting')).toBe('2024-03-05 14:30');
        expect(await value('paid')).toBe('Yes');
        expect(await value('owner')).toBe('Owner');
        expect(await page.locator('footer').textContent()).toContain('Asia/Shanghai');
        const text = await page.locator('body').textContent();
        expect(text).not.toContain('Secret');
        expect(text).not.toContain('top secret');
        // The inline style sheet is applied: its hash in the policy matches, as this browser checks it.
        expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(246, 248, 250)');
        expect(cspViolations).toEqual([]);
      });

      it('shows a <script> value as text and never runs it', async () => {
        const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title', 'notes'] });
        await page.goto(link.url);
        expect(await page.locator(`dd[data-field="${sheet.field.notes}"]`).textContent()).toBe('<script>alert("owned")</script> & <b>bold</b>');
        expect(await page.locator('script').count()).toBe(0);
        expect(await page.locator('main b').count()).toBe(0);
        expect(dialogs).toEqual([]);
      });

      it('downloads an attached file through its link, without an account', async () => {
        const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['files'] });
        await page.goto(link.url);
        const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a[download]').click()]);
        expect(download.suggestedFilename()).toBe('figures.txt');
        expect(readFileSync((await download.path())!, 'utf8')).toBe(SHARED_FILE_TEXT);
      });

      it('asks for the password, says when it is wrong, and keeps the viewer in once it is right', async () => {
        const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title'], password: 'open sesame' });
        expect((await page.goto(link.url))!.status()).toBe(401);
        expect(await page.locator('h1').textContent()).toBe('Password required');
        await page.fill('#password', 'guess');
        await Promise.all([page.waitForURL(link.url), page.click('button[type=submit]')]);
        expect(await page.locator('.error').textContent()).toContain('not right');
        expect(await page.locator('body').textContent()).not.toContain('ACME order');
        await page.fill('#password', 'open sesame');
        const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'GET' && r.url() === link.url), page.click('button[type=submit]')]);
        expect(answer.status()).toBe(200);
        expect(await page.locator('h1').textContent()).toBe('ACME order');
        const [cookie] = await context.cookies(link.url);
        expect(cookie).toMatchObject({ name: 'share_pass', path: new URL(link.url).pathname, httpOnly: true, sameSite: 'Strict' });
        expect((await page.reload())!.status()).toBe(200);
        expect(await page.locator('h1').textContent()).toBe('ACME order');
      });

      it('says plainly that an expired link has expired', async () => {
        const link = await shareRecord(ctx, sheet, rowId, { expiredIn: 60 });
        expect((await page.goto(link.url))!.status()).toBe(200);
        now += 60_000;
        expect((await page.goto(link.url))!.status()).toBe(410);
        expect(await page.locator('h1').textContent()).toBe('This link has expired');
      });

      it('saves a screenshot of the page that is not blank', async () => {
        const link = await shareRecord(ctx, sheet, rowId, { visibleFields: ['title', 'status', 'meeting', 'files', 'notes'] });
        await page.goto(link.url);
        const shot = await page.screenshot({ fullPage: true });
        mkdirSync(SCREENSHOTS, { recursive: true });
        writeFileSync(join(SCREENSHOTS, `share-page-${ctx.engine}.png`), shot);
        await page.setContent('<html><body style="background:#fff"></body></html>');
        const blank = await page.screenshot();
        // The check tells a blank page from a drawn one: one colour against text, borders and a button.
        expect(await pixelStats(page, blank)).toEqual({ colours: 1, differing: 0 });
        const drawn = await pixelStats(page, shot);
        expect(drawn.colours).toBeGreaterThan(20);
        expect(drawn.differing).toBeGreaterThan(0.2);
      });
    },
    { PUBLIC_URL: origin, TIME_ZONE: 'Asia/Shanghai' },
    { clock: () => now },
  ),
);
