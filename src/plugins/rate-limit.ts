import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import type { Actor } from '../shared/actor.js';
import { RequestLimiter, refusalOf, type LimitCount, type LimitSettings } from '../limits/request-limiter.js';
import { stateField } from '../limits/ratelimit-fields.js';
import type { Redis } from 'ioredis';

/**
 * What the authentication hook runs once it knows who calls (`actor`; null for a public route, a
 * request without credentials, or one whose credentials were refused). It refuses by throwing; it
 * returns a promise only when it has to wait (counts in Redis), so that in memory it costs none.
 */
export type Admission = (request: FastifyRequest, reply: FastifyReply, actor: Actor | null) => Promise<void> | undefined;

/** The limits of a configuration. */
export function limitSettingsOf(config: Config): LimitSettings {
  return {
    perCredential: config.rateLimit,
    perIp: config.rateLimitPerIp,
    windowSeconds: config.rateLimitWindowSeconds,
    dailyQuota: config.dailyQuota,
    timeZone: config.timeZone,
    keyPrefix: config.redisKeyPrefix,
  };
}

/**
 * The rate limits as the authentication hook's admission step, or undefined when every limit is
 * off (then nothing is counted and no header is sent). Every response it sees gets the
 * `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-11); a request
 * over a limit is refused with 429, `Retry-After` and error code 51 (rate) or 90000 (daily quota).
 * The counters are in Redis when there is one (shared by every process), else in this process.
 * @example await app.register(authenticationPlugin, { strategies, admit: rateLimitAdmission(config, app.redis, app.clock) });
 */
export function rateLimitAdmission(config: Config, redis: Redis | null, clock: () => number): Admission | undefined {
  const settings = limitSettingsOf(config);
  if (!RequestLimiter.anyOn(settings)) return undefined;
  const limiter = new RequestLimiter(settings, redis, clock);
  return (request, reply, actor) => {
    const counted = limiter.count(request.ip, actor);
    if (counted instanceof Promise) return counted.then((count) => admitCounted(reply, count));
    admitCounted(reply, counted);
    return undefined;
  };
}

/** Sends where the limits stand, and refuses a request over one of them. */
function admitCounted(reply: FastifyReply, { uses, policyField }: LimitCount): void {
  if (uses.length === 0) return;
  // Set before any refusal is thrown: the error's response keeps them.
  reply.header('ratelimit-policy', policyField);
  reply.header('ratelimit', stateField(uses));
  const refusal = refusalOf(uses);
  if (refusal) {
    reply.header('retry-after', String(refusal.retryAfterSeconds));
    throw refusal.error;
  }
}
