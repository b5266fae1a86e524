import { beforeAll, expect, it } from 'vitest';
import { issueKey, setKeyAllowlist, type IssuedKey } from '../../src/modules/app-keys/index.js';
import { describeApi, type ApiContext, type Envelope } from '../helpers/api-harness.js';

/** A GET /v3/app with `key` from `address`, with extra headers. */
async function getFrom(ctx: ApiContext, key: IssuedKey, address: string, headers: Record<string, string> = {}) {
  const prefix = ctx.config.headerPrefix;
  const response = await ctx.app.inject({ method: 'GET', url: '/v3/app', headers: { [`${prefix}-Appkey`]: key.appKey, [`${prefix}-Sign`]: key.sign, ...headers }, remoteAddress: address });
  return { status: response.statusCode, body: response.json<Envelope<{ appId: string }>>() };
}

describeApi('app keys restricted to addresses', (ctx) => {
  let restricted: IssuedKey;
  beforeAll(async () => {
    restricted = await issueKey(ctx.database.db, ctx.setup.app.appId, false, Date.now(), ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
  });

  it.each(['10.1.2.3', '::ffff:10.200.0.1', '2001:db8::5', '192.0.2.7'])('lets %s use the key', async (address) => {
    const response = await getFrom(ctx, restricted, address);
    expect(response.status).toBe(200);
    expect(response.body.data.appId).toBe(ctx.setup.app.appId);
  });

  it.each(['11.0.0.1', '192.0.2.8', '2001:db9::1', '127.0.0.1'])('refuses %s with 10000 (HTTP 403) naming the address', async (address) => {
    const response = await getFrom(ctx, restricted, address);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, error_code: 10000, data: null });
    expect(response.body.error_msg).toContain(address);
  });

  it('checks the Sign before the address: a wrong Sign from a refused address is still 10102', async () => {
    const response = await getFrom(ctx, { ...restricted, sign: 'x'.repeat(88) }, '11.0.0.1');
    expect(response.body.error_code).toBe(10102);
  });

  it('ignores X-Forwarded-For when TRUST_PROXY is off (the default)', async () => {
    const response = await getFrom(ctx, restricted, '127.0.0.1', { 'x-forwarded-for': '10.1.2.3' });
    expect(response.body.error_code).toBe(10000);
  });

  it('lets any address in once the allowlist is removed (a key not cached yet)', async () => {
    const key = await issueKey(ctx.database.db, ctx.setup.app.appId, false, Date.now(), ['10.0.0.0/8']);
    await setKeyAllowlist(ctx.database.db, key.appKey, null);
    expect((await getFrom(ctx, key, '198.51.100.9')).status).toBe(200);
  });

  it('refuses an entry that is not an address or range, naming it', async () => {
    await expect(issueKey(ctx.database.db, ctx.setup.app.appId, false, Date.now(), ['10.0.0.0/33'])).rejects.toThrow('"10.0.0.0/33" is not an IP address or CIDR range');
    await expect(setKeyAllowlist(ctx.database.db, restricted.appKey, ['10.1'])).rejects.toMatchObject({ code: 10002 });
    await expect(setKeyAllowlist(ctx.database.db, restricted.appKey, [])).rejects.toMatchObject({ code: 10002 });
    await expect(setKeyAllowlist(ctx.database.db, 'no-such-key', null)).rejects.toMatchObject({ code: 10007 });
  });
});

describeApi(
  'app keys restricted to addresses, behind a trusted proxy',
  (ctx) => {
    let restricted: IssuedKey;
    beforeAll(async () => {
      restricted = await issueKey(ctx.database.db, ctx.setup.app.appId, false, Date.now(), ['10.0.0.0/8']);
    });

    it('reads the client address from X-Forwarded-For sent by a trusted proxy', async () => {
      expect((await getFrom(ctx, restricted, '127.0.0.1', { 'x-forwarded-for': '10.1.2.3' })).status).toBe(200);
      const refused = await getFrom(ctx, restricted, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' });
      expect(refused.body.error_code).toBe(10000);
      expect(refused.body.error_msg).toContain('198.51.100.7');
    });

    it('does not believe X-Forwarded-For from an address that is not a trusted proxy', async () => {
      const response = await getFrom(ctx, restricted, '198.51.100.8', { 'x-forwarded-for': '10.1.2.3' });
      expect(response.body.error_code).toBe(10000);
      expect(response.body.error_msg).toContain('198.51.100.8');
    });
  },
  { TRUST_PROXY: '127.0.0.1/32, ::1' },
);
