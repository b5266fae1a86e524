import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { IdleCollection } from '../../src/processes/idle-collection.js';
import { idleCollectionPlugin } from '../../src/plugins/idle-collection.js';

describe('the idle-time collection', () => {
  it('collects once after requests and a quiet time, and not again until requests come', () => {
    let collections = 0;
    const idle = new IdleCollection(5_000, () => collections++);
    expect(idle.tick(1_000_000)).toBe(false); // nothing served yet
    idle.answered(1_000_000);
    idle.answered(1_000_200);
    expect(idle.tick(1_005_100)).toBe(false); // 4.9 s after the last
    expect(idle.tick(1_005_200)).toBe(true);
    expect(idle.tick(1_020_000)).toBe(false); // nothing served since
    idle.answered(1_030_000);
    expect(idle.tick(1_035_000)).toBe(true);
    expect(collections).toBe(2);
  });

  it('runs through the server: an answer counts as activity', async () => {
    let now = 1_000_000;
    let collections = 0;
    const app = Fastify();
    await app.register(idleCollectionPlugin, { idleMs: 5_000, clock: () => now, collect: () => collections++ });
    app.get('/probe', async () => {
      now += 3_000; // the answer is given 3 s after the request came
      return { ok: true };
    });
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/probe' })).statusCode).toBe(200);
    expect(app.idleCollection!.tick(1_007_000)).toBe(false); // 4 s after the answer
    expect(app.idleCollection!.tick(1_008_000)).toBe(true);
    expect(collections).toBe(1);
    await app.close();
  });

  it('is off with IDLE_COLLECT_SECONDS=0, and when Node does not expose gc', async () => {
    const off = Fastify();
    await off.register(idleCollectionPlugin, { idleMs: 0, clock: Date.now, collect: () => undefined });
    await off.ready();
    expect(off.idleCollection).toBeNull();
    await off.close();

    const exposed = (globalThis as { gc?: unknown }).gc;
    delete (globalThis as { gc?: unknown }).gc;
    try {
      const noGc = Fastify();
      await noGc.register(idleCollectionPlugin, { idleMs: 5_000, clock: Date.now });
      await noGc.ready();
      expect(noGc.idleCollection).toBeNull();
      await noGc.close();
    } finally {
      if (exposed !== undefined) (globalThis as { gc?: unknown }).gc = exposed;
    }
  });
});
