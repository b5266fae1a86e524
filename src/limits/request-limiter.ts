import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Actor } from '../shared/actor.js';
import { AppError } from '../shared/app-error.js';
import { ErrorCode } from '../shared/error-codes.js';
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

interface Policy {
  /** One bit per policy: the combination names the cached RateLimit-Policy field. */
  bit: number;
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
 * @example const { uses, policyField } = await limiter.count('203.0.113.9', actor); const refusal = refusalOf(uses);
 */
export class RequestLimiter {
  private readonly ip: Policy | null;
  private readonly credential: Policy | null;
  private readonly user: Policy | null;
  private readonly daily: Policy | null;
  private readonly days: QuotaDays;
  private readonly windowMs: number;
  /** RateLimit-Policy by combination of policies (the sum of their bits): it changes only with the settings. */
  private readonly policyFields = new Map<number, string>();

  constructor(settings: LimitSettings, redis: Redis | null, private readonly clock: () => number) {
    const limiter = (points: number, duration: number): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ points, duration });
      if (!redis) return memory;
      return new RateLimiterRedis({ storeClient: redis, keyPrefix: `${settings.keyPrefix}rl`, points, duration, insuranceLimiter: memory, rejectIfRedisNotReady: true });
    };
    const window = settings.windowSeconds;
    this.windowMs = window * 1000;
    this.ip = settings.perIp > 0 ? { bit: 1, name: 'ip', quota: settings.perIp, windowSeconds: window, limiter: limiter(settings.perIp, window) } : null;
    const perCredential = settings.perCredential > 0 ? limiter(settings.perCredential, window) : null;
    this.credential = perCredential ? { bit: 2, name: 'credential', quota: settings.perCredential, windowSeconds: window, limiter: perCredential } : null;
    this.user = perCredential ? { bit: 4, name: 'user', quota: settings.perCredential, windowSeconds: window, limiter: perCredential } : null;
    this.daily = settings.dailyQuota > 0 ? { bit: 8, name: 'daily', quota: settings.dailyQuota, windowSeconds: 86_400, limiter: limiter(settings.dailyQuota, DAY_KEY_SECONDS) } : null;
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
  async count(address: string, actor: Actor | null): Promise<LimitCount> {
    const now = this.clock();
    const window = Math.floor(now / this.windowMs);
    const windowReset = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    const policies: Policy[] = [];
    const keys: string[] = [];
    if (this.ip) {
      policies.push(this.ip);
      keys.push(`ip:${address}:${window}`);
    }
    let dayReset = 0;
    if (actor) {
      const credential = `${actor.kind}:${actor.credentialId}`;
      if (this.credential) {
        policies.push(this.credential);
        keys.push(`c:${credential}:${window}`);
      }
      if (this.user && actor.userId !== null) {
        policies.push(this.user);
        keys.push(`u:${actor.userId}:${window}`);
      }
      if (this.daily) {
        const day = this.days.at(now);
        dayReset = Math.max(1, Math.ceil((day.endsAt - now) / 1000));
        policies.push(this.daily);
        keys.push(`d:${credential}:${day.date}`);
      }
    }
    // Issued together: in Redis one round trip.
    const pending: Array<Promise<RateLimiterRes>> = [];
    for (let i = 0; i < keys.length; i += 1) pending.push(policies[i].limiter.consume(keys[i]).catch(overLimit));
    const results = await Promise.all(pending);
    const uses: PolicyUse[] = [];
    let combination = 0;
    for (let i = 0; i < results.length; i += 1) {
      const policy = policies[i];
      combination += policy.bit;
      const consumed = results[i].consumedPoints;
      uses.push({
        name: policy.name,
        quota: policy.quota,
        windowSeconds: policy.windowSeconds,
        remaining: consumed < policy.quota ? policy.quota - consumed : 0,
        resetSeconds: policy === this.daily ? dayReset : windowReset,
        exceeded: consumed > policy.quota,
      });
    }
    let field = this.policyFields.get(combination);
    if (field === undefined) this.policyFields.set(combination, (field = policyField(uses)));
    return { uses, policyField: field };
  }
}

/** Over the limit, the library rejects with the counter's state; any other rejection is a failure. */
function overLimit(rejection: unknown): RateLimiterRes {
  if (rejection instanceof RateLimiterRes) return rejection;
  throw rejection;
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
