import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCounts } from '../../src/limits/memory-counts.js';
import { RequestLimiter, type LimitCount } from '../../src/limits/request-limiter.js';
import { appKeyActor } from '../../src/access/index.js';
import type { Actor } from '../../src/shared/actor.js';

const key = appKeyActor({ keyId: 'k1', appId: 'a1', organizationId: 'o1', readOnly: false });
const token = (credentialId: string): Actor => ({ ...key, kind: 'token', userId: 'u1', accountId: 'u1', credentialId });

describe('MemoryCounts', () => {
  it('counts an address and a user per window, starting again in the next', () => {
    const counts = new MemoryCounts();
    expect([counts.address(7, '192.0.2.1'), counts.address(7, '192.0.2.1'), counts.address(7, '192.0.2.2')]).toEqual([1, 2, 1]);
    expect([counts.user(7, 'u1'), counts.user(7, 'u1')]).toEqual([1, 2]);
    expect([counts.address(8, '192.0.2.1'), counts.user(8, 'u1')]).toEqual([1, 1]);
  });

  it('counts a credential in its window and on its day with one entry: a new window keeps the day', () => {
    const counts = new MemoryCounts();
    counts.credential(key, 7, '2024-01-01');
    expect(counts.credential(key, 7, '2024-01-01')).toMatchObject({ inWindow: 2, onDay: 2 });
    expect(counts.credential(key, 8, '2024-01-01')).toMatchObject({ inWindow: 1, onDay: 3 });
    expect(counts.credential(key, 8, '2024-01-02')).toMatchObject({ inWindow: 2, onDay: 1 });
    expect(counts.credential(key, null, '2024-01-02')).toMatchObject({ inWindow: 2, onDay: 2 });
  });

  it('keeps kinds of credential apart: an app key and a token of the same id count alone', () => {
    const counts = new MemoryCounts();
    counts.credential(key, 7, null);
    expect(counts.credential(token(key.credentialId), 7, null).inWindow).toBe(1);
    expect(counts.credential(key, 7, null).inWindow).toBe(2);
  });

  it('holds only the current window, and the credentials of the current window or day', () => {
    const counts = new MemoryCounts();
    counts.address(7, '192.0.2.1');
    counts.user(7, 'u1');
    counts.credential(token('t1'), 7, null);
    counts.credential(token('t2'), 7, '2024-01-01');
    expect(counts.size).toBe(4);
    counts.address(8, '192.0.2.1');
    // t1 counted only in window 7; t2 still has its day.
    expect(counts.size).toBe(2);
    counts.credential(token('t3'), 8, '2024-01-02');
    // t2's day is over and its window too.
    expect(counts.size).toBe(2);
  });
});

describe('RequestLimiter in memory', () => {
  it('answers at once, not with a promise', () => {
    const limiter = new RequestLimiter({ perCredential: 5, perIp: 5, windowSeconds: 60, dailyQuota: 5, timeZone: 'UTC', keyPrefix: 'test:' }, null, () => 0);
    const count = limiter.count('192.0.2.1', key);
    expect(count).not.toBeInstanceOf(Promise);
    expect(count).toMatchObject({ policyField: '"ip";q=5;w=60, "credential";q=5;w=60, "daily";q=5;w=86400' });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)(redisUrl ? 'RequestLimiter in memory and in Redis' : 'RequestLimiter in memory and in Redis [skipped: TEST_REDIS_URL is not set]', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await redis.connect();
  });
  afterAll(async () => {
    await redis?.quit();
  });

  it('answer a sequence of requests alike: counts, remaining, resets, policies, across a window and a day', async () => {
    // 23:59:45 UTC: 5 s before the end of a 10 s window, 15 s before the end of the day.
    let now = Date.UTC(2024, 0, 1, 23, 59, 45);
    const settings = { perCredential: 3, perIp: 4, windowSeconds: 10, dailyQuota: 4, timeZone: 'UTC', keyPrefix: `test-${randomBytes(6).toString('hex')}:` };
    const inMemory = new RequestLimiter(settings, null, () => now);
    const inRedis = new RequestLimiter(settings, redis, () => now);
    // [address, actor, ms the clock moves after the request]
    const sequence: Array<[string, Actor | null, number]> = [
      ['192.0.2.1', null, 0],
      ['192.0.2.1', key, 0],
      ['192.0.2.1', key, 1_000],
      ['192.0.2.1', token('t1'), 0],
      ['192.0.2.2', token('t2'), 0],
      ['192.0.2.1', key, 0], // the fifth from this address
      ['192.0.2.1', key, 0], // the key's fourth in the window
      ['192.0.2.2', token('t1'), 0],
      ['192.0.2.2', token('t2'), 4_000], // the person's fourth in the window
      ['192.0.2.1', key, 10_000], // the next window: the key's fifth of the day
      ['192.0.2.1', key, 0], // the next day
    ];
    const answers: Array<[LimitCount, LimitCount]> = [];
    for (const [address, actor, advance] of sequence) {
      answers.push([await inMemory.count(address, actor), await inRedis.count(address, actor)]);
      now += advance;
    }
    for (const [memory, shared] of answers) expect(memory).toEqual(shared);
    // The sequence reaches every limit: the address, the credential, the user and the day.
    const exceeded = new Set(answers.flatMap(([memory]) => memory.uses.filter((use) => use.exceeded).map((use) => use.name)));
    expect([...exceeded].sort()).toEqual(['credential', 'daily', 'ip', 'user']);
    // And the next day starts again.
    expect(answers.at(-1)![0].uses.find((use) => use.name === 'daily')).toMatchObject({ remaining: 3, exceeded: false, resetSeconds: 86_400 });
  });
});
