import type { Redis } from 'ioredis';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { MemoryCounts } from './memory-counts.js';
import type { RedisCounts } from './redis-counts.js';
import { QuotaDays } from './quota-day.js';
import { policyField, type PolicyUse } from './ratelimit-fields.js';

/** The limits, from the configuration (0 turns one off). */
export interface LimitSettings {
  /** Requests per window per credential, and per user across their credentials. */
  perCredential: number;
  /** Requests per window per client address. */
  perIp: number;
  windowSeconds: number;
  /** Requests per day (of `timeZone`) per credential. */
  dailyQuota: number;
  timeZone: string;
  /** Prefix of the counters' Redis keys. */
  keyPrefix: string;
}

/** Where a request's counts stand, and the RateLimit-Policy field of the limits that counted it. */
export interface LimitCount {
  uses: PolicyUse[];
  policyField: string;
}

/** One bit per policy: a combination of them names its RateLimit-Policy field. */
export const POLICY_BITS = { ip: 1, credential: 2, user: 4, daily: 8 } as const;

interface Policy {
  /** One bit per policy: the combination names the cached RateLimit-Policy field. */
  bit: number;
  name: 'ip' | 'credential' | 'user' | 'daily';
  quota: number;
  windowSeconds: number;
}

/**
 * Counts requests against the limits that apply to them: the client address (every request,
 * before and whether or not it authenticates), the credential, the user behind it, and the
 * credential's daily quota. In one process the counts are kept in its memory (`MemoryCounts`,
 * synchronous: no promise per request); with Redis every process shares them (`RedisCounts`,
 * loaded on the first count). The windows are ours: fixed windows of the app's
 * clock (`⌊now / window⌋` is part of the key) and days of TIME_ZONE, so every process agrees when a
 * window renews and tests move time through the clock.
 * @example const { uses, policyField } = await limiter.count('203.0.113.9', actor); const refusal = refusalOf(uses);
 */
export class RequestLimiter {
  private readonly ip: Policy | null;
  private readonly credential: Policy | null;
  private readonly user: Policy | null;
  private readonly daily: Policy | null;
  private readonly days: QuotaDays;
  private readonly windowMs: number;
  /** In this process's memory when there is no Redis; null with Redis. */
  private readonly memory: MemoryCounts | null;
  /** In Redis, once the first request is counted. */
  private shared: Promise<RedisCounts> | undefined;
  /** RateLimit-Policy by combination of policies (the sum of their bits): it changes only with the settings. */
  private readonly policyFields: Array<string | undefined> = new Array<string | undefined>(16);

  constructor(
    private readonly settings: LimitSettings,
    private readonly redis: Redis | null,
    private readonly clock: () => number,
  ) {
    const window = settings.windowSeconds;
    this.windowMs = window * 1000;
    this.ip = settings.perIp > 0 ? { bit: POLICY_BITS.ip, name: 'ip', quota: settings.perIp, windowSeconds: window } : null;
    this.credential = settings.perCredential > 0 ? { bit: POLICY_BITS.credential, name: 'credential', quota: settings.perCredential, windowSeconds: window } : null;
    this.user = settings.perCredential > 0 ? { bit: POLICY_BITS.user, name: 'user', quota: settings.perCredential, windowSeconds: window } : null;
    this.daily = settings.dailyQuota > 0 ? { bit: POLICY_BITS.daily, name: 'daily', quota: settings.dailyQuota, windowSeconds: 86_400 } : null;
    this.days = new QuotaDays(settings.timeZone);
    this.memory = redis ? null : new MemoryCounts();
  }

  /** Whether any limit is on: with none, the server does not count at all. */
  static anyOn(settings: LimitSettings): boolean {
    return settings.perIp > 0 || settings.perCredential > 0 || settings.dailyQuota > 0;
  }

  /**
   * Counts one request from `address` by `actor` (null: not authenticated, or refused) and
   * says where each limit it counted against stands. In memory the answer is immediate; in Redis
   * the counts are sent together (one round trip) and the answer is a promise.
   */
  count(address: string, actor: Actor | null): LimitCount | Promise<LimitCount> {
    const now = this.clock();
    const window = Math.floor(now / this.windowMs);
    const windowReset = secondsUntil((window + 1) * this.windowMs, now);
    return this.memory ? this.countInMemory(this.memory, now, window, windowReset, address, actor) : this.countInRedis(now, window, windowReset, address, actor);
  }

  private countInMemory(memory: MemoryCounts, now: number, window: number, windowReset: number, address: string, actor: Actor | null): LimitCount {
    const uses: PolicyUse[] = [];
    let combination = 0;
    if (this.ip) {
      combination += this.ip.bit;
      uses.push(useOf(this.ip, memory.address(window, address), windowReset));
    }
    if (actor) {
      const day = this.daily ? this.days.at(now) : null;
      if (this.credential || day) {
        const counted = memory.credential(actor, this.credential ? window : null, day ? day.date : null);
        if (this.credential) {
          combination += this.credential.bit;
          uses.push(useOf(this.credential, counted.inWindow, windowReset));
        }
        if (this.user && actor.userId !== null) {
          combination += this.user.bit;
          uses.push(useOf(this.user, memory.user(window, actor.userId), windowReset));
        }
        if (this.daily && day) {
          combination += this.daily.bit;
          uses.push(useOf(this.daily, counted.onDay, secondsUntil(day.endsAt, now)));
        }
      }
    }
    return { uses, policyField: this.policyFieldOf(combination, uses) };
  }

  private async countInRedis(now: number, window: number, windowReset: number, address: string, actor: Actor | null): Promise<LimitCount> {
    const policies: Policy[] = [];
    const keys: string[] = [];
    const counted = (policy: Policy | null, key: string): void => {
      if (!policy) return;
      policies.push(policy);
      keys.push(key);
    };
    counted(this.ip, `ip:${address}:${window}`);
    let dayReset = 0;
    if (actor) {
      const credential = `${actor.kind}:${actor.credentialId}`;
      counted(this.credential, `c:${credential}:${window}`);
      if (actor.userId !== null) counted(this.user, `u:${actor.userId}:${window}`);
      if (this.daily) {
        const day = this.days.at(now);
        dayReset = secondsUntil(day.endsAt, now);
        counted(this.daily, `d:${credential}:${day.date}`);
      }
    }
    // rate-limiter-flexible is loaded with the first count: a process without Redis never holds it.
    this.shared ??= import('./redis-counts.js').then(({ RedisCounts }) => new RedisCounts(this.settings, this.redis!));
    const consumed = await (await this.shared).consume(
      policies.map((policy) => policy.bit),
      keys,
    );
    const uses: PolicyUse[] = [];
    let combination = 0;
    for (let i = 0; i < consumed.length; i += 1) {
      const policy = policies[i];
      combination += policy.bit;
      uses.push(useOf(policy, consumed[i], policy === this.daily ? dayReset : windowReset));
    }
    return { uses, policyField: this.policyFieldOf(combination, uses) };
  }

  private policyFieldOf(combination: number, uses: readonly PolicyUse[]): string {
    return (this.policyFields[combination] ??= policyField(uses));
  }
}

/** Where `policy` stands after `consumed` requests. */
function useOf(policy: Policy, consumed: number, resetSeconds: number): PolicyUse {
  return {
    name: policy.name,
    quota: policy.quota,
    windowSeconds: policy.windowSeconds,
    remaining: consumed < policy.quota ? policy.quota - consumed : 0,
    resetSeconds,
    exceeded: consumed > policy.quota,
  };
}

/** Whole seconds from `now` until `end`, at least 1. */
function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/** What refusing an over-limit request takes: the error and the Retry-After seconds. */
export interface LimitRefusal {
  error: AppError;
  retryAfterSeconds: number;
}

const SUBJECTS: Record<string, string> = { ip: 'this address', credential: 'this credential', user: 'this user' };

/**
 * The refusal for a request some limit of which is exceeded, or null. A used-up daily quota
 * (90000) outranks a rate limit (51): it lasts longer. Both are HTTP 429.
 */
export function refusalOf(uses: readonly PolicyUse[]): LimitRefusal | null {
  let refusal: LimitRefusal | null = null;
  for (const use of uses) {
    if (!use.exceeded) continue;
    if (use.name === 'daily') {
      const error = new AppError(ErrorCode.RequestLimitExceeded, 429, `the daily quota of ${use.quota} requests of this credential is used up; it renews in ${use.resetSeconds} s`);
      return { error, retryAfterSeconds: use.resetSeconds };
    }
    if (!refusal || use.resetSeconds > refusal.retryAfterSeconds) {
      const error = new AppError(ErrorCode.RateLimited, 429, `too many requests: more than ${use.quota} in ${use.windowSeconds} s from ${SUBJECTS[use.name]}; retry in ${use.resetSeconds} s`);
      refusal = { error, retryAfterSeconds: use.resetSeconds };
    }
  }
  return refusal;
}
