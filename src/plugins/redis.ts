import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ConfigError } from '../config/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis when REDIS_URL is set; null on a single embedded process. */
    redis: Redis | null;
  }
}

/**
 * Connects to Redis when configured. Nothing in this version needs it to serve requests
 * (rate limits and cross-process cache invalidation arrive later); the health report shows it.
 */
export const redisPlugin = fp(async (app: FastifyInstance, options: { url: string | null }) => {
  if (!options.url) {
    app.decorate('redis', null);
    return;
  }
  // Loaded only here: a process without REDIS_URL (the embedded default) never holds the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false });
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis error'));
  await redis.connect().catch((error: Error) => {
    redis.disconnect();
    throw new ConfigError('REDIS_URL', `cannot be reached (${options.url}): ${error.message}`);
  });
  app.decorate('redis', redis);
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
});
