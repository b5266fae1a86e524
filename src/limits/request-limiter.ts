import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { QuotaDays } from './quota-day.js';
import type { PolicyUse } from './ratelimit-fields.js';

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

interface Policy {
  name: 'ip' | 'credential' | 'user' | 'daily';
  quota: number;
  windowSeconds: number;
  limiter: RateLimiterAbstract;
}

/** A daily counter lives a little over a day (a day of a time zone may have 25 hours). */
const DAY_KEY_SECONDS = 90_000;

/**
 * Counts requests against the limits that apply to them: the client address (every request,
 * before and whether or not it authenticates), the credential, the user behind it, and the
 * credential's daily quota. The counting is rate-limiter-flexible's (atomic increments with an
 * expiry, in this process's memory, or in Redis so that every process shares one budget, with a
 * memory limiter standing in while Redis cannot be reached). The windows are ours: fixed windows
 * of the app's clock (`⌊now / window⌋` is part of the key) and days of TIME_ZONE, so every process
 * agrees when a window renews and tests move time through the clock.
 * @example const uses = await limiter.count('203.0.113.9', actor); const refusal = refusalOf(uses);
 */
export class RequestLimiter {
  private readonly ip: Policy | null;
  private readonly credential: Policy | null;
  private readonly user: Policy | null;
  private readonly daily: Policy | null;
  private readonly days: QuotaDays;
  private readonly windowMs: number;

  constructor(settings: LimitSettings, redis: Redis | null, private readonly clock: () => number) {
    const limiter = (points: number, duration: number): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ points, duration });
      if (!redis) return memory;
      return new RateLimiterRedis({ storeClient: redis, keyPrefix: `${settings.keyPrefix}rl`, points, duration, insuranceLimiter: memory, rejectIfRedisNotReady: true });
    };
    const window = settings.windowSeconds;
    this.windowMs = window * 1000;
    this.ip = settings.perIp > 0 ? { name: 'ip', quota: settings.perIp, windowSeconds: window, limiter: limiter(settings.perIp, window) } : null;
    const perCredential = settings.perCredential > 0 ? limiter(settings.perCredential, window) : null;
    this.credential = perCredential ? { name: 'credential', quota: settings.perCredential, windowSeconds: window, limiter: perCredential } : null;
    this.user = perCredential ? { name: 'user', quota: settings.perCredential, windowSeconds: window, limiter: perCredential } : null;
    this.daily = settings.dailyQuota > 0 ? { name: 'daily', quota: settings.dailyQuota, windowSeconds: 86_400, limiter: limiter(settings.dailyQuota, DAY_KEY_SECONDS) } : null;
    this.days = new QuotaDays(settings.timeZone);
  }

  /** Whether any limit is on: with none, the server does not count at all. */
  static anyOn(settings: LimitSettings): boolean {
    return settings.perIp > 0 || settings.perCredential > 0 || settings.dailyQuota > 0;
  }

  /**
   * Counts one request from `address` by `actor` (null: not authenticated, or refused) and
   * says where each limit it counted against stands. In Redis, the counts are sent together:
   * one round trip.
   */
  count(address: string, actor: Actor | null): Promise<PolicyUse[]> {
    const now = this.clock();
    const window = Math.floor(now / this.windowMs);
    const windowReset = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    const counts: Array<Promise<PolicyUse>> = [];
    if (this.ip) counts.push(this.consume(this.ip, `ip:${address}:${window}`, windowReset));
    if (actor) {
      const credential = `${actor.kind}:${actor.credentialId}`;
      if (this.credential) counts.push(this.consume(this.credential, `c:${credential}:${window}`, windowReset));
      if (this.user && actor.userId !== null) counts.push(this.consume(this.user, `u:${actor.userId}:${window}`, windowReset));
      if (this.daily) {
        const day = this.days.at(now);
        counts.push(this.consume(this.daily, `d:${credential}:${day.date}`, Math.max(1, Math.ceil((day.endsAt - now) / 1000))));
      }
    }
    return Promise.all(counts);
  }

  private consume(policy: Policy, key: string, resetSeconds: number): Promise<PolicyUse> {
    const use = (result: RateLimiterRes): PolicyUse => ({
      name: policy.name,
      quota: policy.quota,
      windowSeconds: policy.windowSeconds,
      remaining: Math.max(0, policy.quota - result.consumedPoints),
      resetSeconds,
      exceeded: result.consumedPoints > policy.quota,
    });
    // Over the limit, the library rejects with the counter's state; any other rejection is a failure.
    return policy.limiter.consume(key).then(use, (rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) return use(rejection);
      throw rejection;
    });
  }
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
