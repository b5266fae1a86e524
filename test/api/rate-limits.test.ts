import { expect, it } from 'vitest';
import { describeApi, type ApiContext, type Envelope } from '../helpers/api-harness.js';

/** 10:00:30 UTC: 30 s before the minute's window renews. */
const START = Date.UTC(2024, 4, 1, 10, 0, 30);

/** A clock the tests move by hand. */
function handClock() {
  const clock = { now: START, read: () => clock.now };
  return clock;
}

/** A GET from `address`, with the first app's key unless `headers` says otherwise. */
async function getFrom(ctx: ApiContext, address: string, url = '/v3/app', headers: Record<string, string> = ctx.auth) {
  const response = await ctx.app.inject({ method: 'GET', url, headers, remoteAddress: address });
  return { status: response.statusCode, headers: response.headers, body: response.json<Envelope>() };
}

const perMinute = handClock();
describeApi(
  'rate limits per credential and per address',
  (ctx) => {
    it('sends RateLimit-Policy and RateLimit on a success, counting the address and the credential', async () => {
      perMinute.now = START;
      const response = await getFrom(ctx, '198.51.100.1');
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-policy']).toBe('"ip";q=5;w=60, "credential";q=3;w=60');
      expect(response.headers['ratelimit']).toBe('"ip";r=4;t=30, "credential";r=2;t=30');
      expect(response.headers['retry-after']).toBeUndefined();
    });

    it('refuses the credential over its limit from any address: 429, error 51, Retry-After and both fields', async () => {
      perMinute.now = START + 10_000;
      for (const address of ['198.51.100.2', '198.51.100.3']) expect((await getFrom(ctx, address)).status).toBe(200);
      const refused = await getFrom(ctx, '198.51.100.4');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ success: false, error_code: 51, data: null });
      expect(refused.body.error_msg).toContain('more than 3 in 60 s from this credential');
      expect(refused.headers['retry-after']).toBe('20');
      expect(refused.headers['ratelimit-policy']).toBe('"ip";q=5;w=60, "credential";q=3;w=60');
      expect(refused.headers['ratelimit']).toBe('"ip";r=4;t=20, "credential";r=0;t=20');
    });

    it('lets the credential in again when the window renews', async () => {
      perMinute.now = START + 30_000;
      const response = await getFrom(ctx, '198.51.100.4');
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit']).toBe('"ip";r=4;t=60, "credential";r=2;t=60');
    });

    it('counts unauthenticated and public requests per address and refuses the sixth with 51 instead of 401', async () => {
      perMinute.now = START + 60_000;
      const address = '203.0.113.50';
      const health = await getFrom(ctx, address, '/health', {});
      expect(health.status).toBe(200);
      expect(health.headers['ratelimit-policy']).toBe('"ip";q=5;w=60');
      expect(health.headers['ratelimit']).toBe('"ip";r=4;t=30');
      const missing = await getFrom(ctx, address, '/v3/app', {});
      expect(missing.status).toBe(401);
      expect(missing.headers['ratelimit']).toBe('"ip";r=3;t=30');
      const wrongSign = await getFrom(ctx, address, '/v3/app', { ...ctx.auth, [`${ctx.config.headerPrefix}-Sign`]: 'x'.repeat(88) });
      expect(wrongSign.status).toBe(401);
      expect(wrongSign.headers['ratelimit']).toBe('"ip";r=2;t=30');
      const unknownRoute = await getFrom(ctx, address, '/v3/no-such-route', {});
      expect(unknownRoute.status).toBe(404);
      expect(unknownRoute.headers['ratelimit']).toBe('"ip";r=1;t=30');
      expect((await getFrom(ctx, address, '/health', {})).headers['ratelimit']).toBe('"ip";r=0;t=30');
      const refused = await getFrom(ctx, address, '/v3/app', {});
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ success: false, error_code: 51 });
      expect(refused.body.error_msg).toContain('from this address');
      expect(refused.headers['retry-after']).toBe('30');
      expect(refused.headers['ratelimit-policy']).toBe('"ip";q=5;w=60');
      // Another address is not slowed down.
      expect((await getFrom(ctx, '203.0.113.51', '/health', {})).status).toBe(200);
    });
  },
  { RATE_LIMIT: '3', RATE_LIMIT_PER_IP: '5', RATE_LIMIT_WINDOW_SECONDS: '60' },
  { clock: perMinute.read },
);

const daily = handClock();
describeApi(
  'the daily quota per credential',
  (ctx) => {
    it('refuses the credential once its day is used up: 429, error 90000, Retry-After until midnight of TIME_ZONE', async () => {
      // 10:00:30 UTC is 18:00:30 in Shanghai: 5 h 59 min 30 s to its midnight.
      daily.now = START;
      const first = await ctx.call('GET', '/v3/app');
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('"credential";q=100;w=60, "daily";q=2;w=86400');
      expect(first.headers['ratelimit']).toBe('"credential";r=99;t=30, "daily";r=1;t=21570');
      expect((await ctx.call('GET', '/v3/app')).status).toBe(200);
      const refused = await ctx.call('GET', '/v3/app');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ success: false, error_code: 90000, data: null });
      expect(refused.body.error_msg).toContain('daily quota of 2 requests');
      expect(refused.headers['retry-after']).toBe('21570');
      expect(refused.headers['ratelimit']).toBe('"credential";r=97;t=30, "daily";r=0;t=21570');
    });

    it('renews the quota at midnight of TIME_ZONE', async () => {
      daily.now = Date.UTC(2024, 4, 1, 15, 59, 59);
      expect((await ctx.call('GET', '/v3/app')).body.error_code).toBe(90000);
      daily.now = Date.UTC(2024, 4, 1, 16, 0, 0);
      const renewed = await ctx.call('GET', '/v3/app');
      expect(renewed.status).toBe(200);
      expect(renewed.headers['ratelimit']).toBe('"credential";r=99;t=60, "daily";r=1;t=86400');
    });
  },
  { RATE_LIMIT: '100', RATE_LIMIT_PER_IP: '0', DAILY_QUOTA: '2', TIME_ZONE: 'Asia/Shanghai' },
  { clock: daily.read },
);

describeApi('rate limits off', (ctx) => {
  it('sends no rate-limit fields when every limit is 0', async () => {
    const response = await ctx.call('GET', '/v3/app');
    expect(response.status).toBe(200);
    expect(response.headers['ratelimit']).toBeUndefined();
    expect(response.headers['ratelimit-policy']).toBeUndefined();
  });
});

describeApi(
  'rate limits under the public profile',
  (ctx) => {
    it('answers a refusal with HTTP 200 like every business error, keeping Retry-After and the fields', async () => {
      expect((await ctx.call('GET', '/v3/app')).status).toBe(200);
      const refused = await ctx.call('GET', '/v3/app');
      expect(refused.status).toBe(200);
      expect(refused.body).toMatchObject({ success: false, error_code: 51 });
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['ratelimit-policy']).toBe('"ip";q=1;w=3600');
    });
  },
  { API_PROFILE: 'public', RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '1', RATE_LIMIT_WINDOW_SECONDS: '3600' },
);
