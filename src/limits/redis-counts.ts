import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { POLICY_BITS, type LimitSettings } from './request-limiter.js';

/** A daily counter lives a little over a day (a day of a time zone may have 25 hours). */
const DAY_KEY_SECONDS = 90_000;

/**
 * The request counts every process shares through Redis: rate-limiter-flexible's atomic increments
 * with an expiry, with a memory limiter standing in while Redis cannot be reached. Loaded only when
 * REDIS_URL is set (a single process counts in `MemoryCounts`).
 * @example const counts = new RedisCounts(settings, redis); const [ip, credential] = await counts.consume([1, 2], keys);
 */
export class RedisCounts {
  /** The limiter of each policy, by its bit. */
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(settings: LimitSettings, redis: Redis) {
    const limiter = (points: number, duration: number): RateLimiterAbstract =>
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${settings.keyPrefix}rl`, points, duration, insuranceLimiter: new RateLimiterMemory({ points, duration }), rejectIfRedisNotReady: true });
    if (settings.perIp > 0) this.limiters.set(POLICY_BITS.ip, limiter(settings.perIp, settings.windowSeconds));
    if (settings.perCredential > 0) {
      // The credential and the user share one limiter (their keys differ), as they share one quota.
      const perCredential = limiter(settings.perCredential, settings.windowSeconds);
      this.limiters.set(POLICY_BITS.credential, perCredential);
      this.limiters.set(POLICY_BITS.user, perCredential);
    }
    if (settings.dailyQuota > 0) this.limiters.set(POLICY_BITS.daily, limiter(settings.dailyQuota, DAY_KEY_SECONDS));
  }

  /** Counts `keys[i]` against the limiter of policy `bits[i]`, all in one round trip; returns each key's count. */
  async consume(bits: readonly number[], keys: readonly string[]): Promise<number[]> {
    const results = await Promise.all(keys.map((key, i) => this.limiters.get(bits[i])!.consume(key).catch(overLimit)));
    return results.map((result) => result.consumedPoints);
  }
}

/** Over the limit, the library rejects with the counter's state; any other rejection is a failure. */
function overLimit(rejection: unknown): RateLimiterRes {
  if (rejection instanceof RateLimiterRes) return rejection;
  throw rejection;
}
