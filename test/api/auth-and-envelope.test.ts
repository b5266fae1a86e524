import { expect, it } from 'vitest';
import { computeSign } from '../../src/auth/sign.js';
import { addKey } from '../../src/modules/setup/index.js';
import { describeApi } from '../helpers/api-harness.js';

describeApi('app key authentication and the envelope', (ctx) => {
  it('accepts the first app key on /v3 and /api/v3', async () => {
    for (const prefix of ['/v3', '/api/v3']) {
      const response = await ctx.call<{ appId: string }>('GET', `${prefix}/app`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, error_code: 1, error_msg: '' });
      expect(response.body.data.appId).toBe(ctx.setup.app.appId);
    }
  });

  it('reads the headers case-insensitively', async () => {
    const response = await ctx.call('GET', '/v3/app', undefined, { 'svc-appkey': ctx.setup.app.appKey, 'SVC-SIGN': ctx.setup.app.sign });
    expect(response.status).toBe(200);
  });

  it('uses the documented Sign formula', () => {
    expect(ctx.setup.app.appKey).toMatch(/^[0-9a-f]{16}$/);
    expect(ctx.setup.app.sign).toHaveLength(88);
    expect(computeSign(ctx.setup.app.appKey, ctx.setup.app.secretKey)).toBe(ctx.setup.app.sign);
    expect(Buffer.from(ctx.setup.app.sign, 'base64').toString('utf8')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses missing credentials with 10101 and HTTP 401', async () => {
    const response = await ctx.call('GET', '/v3/app', undefined, {});
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, error_code: 10101, data: null });
    expect(response.body.error_msg).toContain('SVC-Appkey');
  });

  it('refuses a key without its Sign with 10101', async () => {
    const response = await ctx.call('GET', '/v3/app', undefined, { 'SVC-Appkey': ctx.setup.app.appKey });
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe(10101);
  });

  it('refuses an unknown key with 10101', async () => {
    const response = await ctx.call('GET', '/v3/app', undefined, { 'SVC-Appkey': '0000000000000000', 'SVC-Sign': ctx.setup.app.sign });
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe(10101);
  });

  it('refuses a wrong Sign with 10102', async () => {
    const wrong = computeSign(ctx.setup.app.appKey, 'not-the-secret');
    const response = await ctx.call('GET', '/v3/app', undefined, { 'SVC-Appkey': ctx.setup.app.appKey, 'SVC-Sign': wrong });
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe(10102);
  });

  it('refuses a Sign that differs from the one just accepted only in its last character before the padding', async () => {
    const headers = (sign: string) => ({ 'SVC-Appkey': ctx.setup.app.appKey, 'SVC-Sign': sign });
    expect((await ctx.call('GET', '/v3/app', undefined, headers(ctx.setup.app.sign))).status).toBe(200);
    const sign = ctx.setup.app.sign;
    expect(sign.endsWith('==')).toBe(true);
    const nearly = `${sign.slice(0, -3)}${sign.at(-3) === 'A' ? 'B' : 'A'}==`;
    const response = await ctx.call('GET', '/v3/app', undefined, headers(nearly));
    expect(response.status).toBe(401);
    expect(response.body.error_code).toBe(10102);
    expect((await ctx.call('GET', '/v3/app', undefined, headers(` ${ctx.setup.app.sign} `))).status).toBe(200);
  });

  it('lets a read-only key read but not write (10005, HTTP 403)', async () => {
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, true, Date.now());
    const headers = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
    expect((await ctx.call('GET', '/v3/app', undefined, headers)).status).toBe(200);
    expect((await ctx.call('POST', '/v3/app/worksheets/list', {}, headers)).status).toBe(200);
    const write = await ctx.call('POST', '/v3/app/worksheets', { name: 'Nope' }, headers);
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ success: false, error_code: 10005 });
  });

  it('answers unknown routes with the envelope and HTTP 404', async () => {
    const response = await ctx.call('GET', '/v3/no/such/thing');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, data: null });
    expect(response.body.error_msg).toContain('/v3/no/such/thing');
  });

  it('answers malformed JSON with 10001', async () => {
    const response = await ctx.call('POST', '/v3/app/worksheets', '{"name": ');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error_code: 10001 });
  });

  it('names the missing parameter (10001) and the bad value (10002)', async () => {
    const missing = await ctx.call('POST', '/v3/app/sections/batch', {});
    expect(missing.body.error_code).toBe(10001);
    expect(missing.body.error_msg).toContain('sections');
    const bad = await ctx.call('POST', '/v3/app', { color: 'blue' });
    expect(bad.body.error_code).toBe(10002);
    expect(bad.body.error_msg).toContain('color');
  });

  it('serves the OpenAPI document and the docs page without credentials', async () => {
    const doc = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json().paths);
    expect(paths).toContain('/v3/app/worksheets/{worksheet_id}/rows/list');
    expect(paths.some((p) => p.startsWith('/api/'))).toBe(false);
    const page = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html');
  });
});

describeApi(
  'a body over BODY_LIMIT',
  (ctx) => {
    it('is refused with HTTP 413 and the envelope', async () => {
      const response = await ctx.call('POST', '/v3/app/worksheets', { name: 'x'.repeat(4096) });
      expect(response.status).toBe(413);
      expect(response.body).toMatchObject({ success: false, error_code: 10001 });
    });
  },
  { BODY_LIMIT: '2kb' },
);

describeApi('bodies that clients leave out', (ctx) => {
  it('treats a missing body as {} on a route whose parameters are optional', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/v3/app/worksheets/list', headers: ctx.auth });
    expect(response.statusCode).toBe(200);
    expect(response.json().success).toBe(true);
  });

  it('treats an empty JSON body as no body, and names a required parameter', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/v3/app/sections/batch',
      headers: { ...ctx.auth, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error_code: 10001 });
    expect(response.json().error_msg).toContain('sections is required');
  });
});
