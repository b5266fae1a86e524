import { describe, expect, it } from 'vitest';
import { RequestLimiter, refusalOf, type LimitSettings } from '../../src/limits/request-limiter.js';
import { QuotaDays } from '../../src/limits/quota-day.js';
import { policyField, stateField, type PolicyUse } from '../../src/limits/ratelimit-fields.js';
import { appKeyActor } from '../../src/access/index.js';
import type { Actor } from '../../src/shared/actor.js';

const SETTINGS: LimitSettings = { perCredential: 2, perIp: 3, windowSeconds: 10, dailyQuota: 0, timeZone: 'UTC', keyPrefix: 'test:' };
const key = appKeyActor({ keyId: 'k1', appId: 'a1', organizationId: 'o1', readOnly: false });
const person = (credentialId: string): Actor => ({ ...key, kind: 'token', userId: 'u1', accountId: 'u1', credentialId });

describe('RequestLimiter', () => {
  it('counts the address alone without an actor, and the credential and user with one', async () => {
    let now = 1_000_000_005_000;
    const limiter = new RequestLimiter(SETTINGS, null, () => now);
    expect((await limiter.count('192.0.2.1', null)).uses.map((use) => use.name)).toEqual(['ip']);
    expect((await limiter.count('192.0.2.1', key)).uses.map((use) => use.name)).toEqual(['ip', 'credential']);
    const third = await limiter.count('192.0.2.1', person('t1'));
    expect(third.uses.map((use) => use.name)).toEqual(['ip', 'credential', 'user']);
    expect(third.policyField).toBe('"ip";q=3;w=10, "credential";q=2;w=10, "user";q=2;w=10');
    const fourth = await limiter.count('192.0.2.1', null);
    expect(fourth.uses[0]).toMatchObject({ remaining: 0, exceeded: true, resetSeconds: 5 });
    expect(fourth.policyField).toBe('"ip";q=3;w=10');
    now += 5_000;
    expect((await limiter.count('192.0.2.1', null)).uses[0]).toMatchObject({ remaining: 2, exceeded: false, resetSeconds: 10 });
  });

  it('shares the user budget across the user\'s credentials', async () => {
    const limiter = new RequestLimiter({ ...SETTINGS, perIp: 0 }, null, () => 0);
    await limiter.count('192.0.2.1', person('t1'));
    await limiter.count('192.0.2.1', person('t2'));
    const { uses: third } = await limiter.count('192.0.2.1', person('t3'));
    expect(third.find((use) => use.name === 'credential')).toMatchObject({ exceeded: false, remaining: 1 });
    expect(third.find((use) => use.name === 'user')).toMatchObject({ exceeded: true, remaining: 0 });
  });
});

describe('refusalOf', () => {
  const use = (name: string, exceeded: boolean, resetSeconds: number): PolicyUse => ({ name, quota: 5, windowSeconds: 60, remaining: exceeded ? 0 : 3, resetSeconds, exceeded });

  it('is null while every limit holds', () => expect(refusalOf([use('ip', false, 9), use('credential', false, 9)])).toBeNull());

  it('refuses with 51 and the longest wait of the exceeded rate limits', () => {
    const refusal = refusalOf([use('ip', true, 9), use('credential', true, 20)]);
    expect(refusal).toMatchObject({ retryAfterSeconds: 20, error: { code: 51, httpStatus: 429 } });
  });

  it('prefers the used-up daily quota (90000)', () => {
    const refusal = refusalOf([use('ip', true, 9), use('daily', true, 3600)]);
    expect(refusal).toMatchObject({ retryAfterSeconds: 3600, error: { code: 90000, httpStatus: 429 } });
  });
});

describe('the RateLimit fields', () => {
  it('writes Structured Field lists of quoted policy names with their parameters', () => {
    const uses: PolicyUse[] = [
      { name: 'ip', quota: 100, windowSeconds: 60, remaining: 42, resetSeconds: 17, exceeded: false },
      { name: 'daily', quota: 1000, windowSeconds: 86400, remaining: 0, resetSeconds: 3600, exceeded: true },
    ];
    expect(policyField(uses)).toBe('"ip";q=100;w=60, "daily";q=1000;w=86400');
    expect(stateField(uses)).toBe('"ip";r=42;t=17, "daily";r=0;t=3600');
  });
});

describe('QuotaDays', () => {
  it('gives the date and the end of the day in the time zone, across a DST change', () => {
    const shanghai = new QuotaDays('Asia/Shanghai');
    expect(shanghai.at(Date.UTC(2024, 0, 1, 17))).toMatchObject({ date: '2024-01-02', endsAt: Date.UTC(2024, 0, 2, 16) });
    expect(shanghai.at(Date.UTC(2024, 0, 1, 15, 59, 59))).toMatchObject({ date: '2024-01-01', endsAt: Date.UTC(2024, 0, 1, 16) });
    const berlin = new QuotaDays('Europe/Berlin');
    // 31 March 2024 has 23 hours in Berlin.
    expect(berlin.at(Date.UTC(2024, 2, 31, 12))).toMatchObject({ date: '2024-03-31', endsAt: Date.UTC(2024, 2, 31, 22) });
  });
});
