import { expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';

/**
 * Route schemas are compiled on a route's first request, not at start (plugins/lazy-schema-compilers.ts):
 * the first request must validate and serialise as any later one, and every schema must still compile.
 */
describeApi('route schemas compiled on first use', (ctx) => {
  it('refuses bad input on the first request of a route, naming the field (10001, 10002)', async () => {
    const missing = await ctx.call('POST', '/api/v3/app/sections/batch', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, error_code: 10001 });
    expect(missing.body.error_msg).toContain('sections');
    const bad = await ctx.call('POST', '/api/v3/app', { color: 'blue' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error_code: 10002 });
    expect(bad.body.error_msg).toContain('color');
  });

  it('serialises the first response of a route by its schema', async () => {
    const first = await ctx.call<Record<string, unknown>>('GET', '/api/v3/app');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, error_code: 1, error_msg: '' });
    expect(first.body.data.appId).toBe(ctx.setup.app.appId);
    const again = await ctx.call('GET', '/api/v3/app');
    expect(again.body).toEqual(first.body);
  });

  it('compiles every route schema not used yet, and then none is left', () => {
    // 875 in all (routes under two prefixes, a validator per part and a serializer per status); the two tests above used a few.
    expect(ctx.app.compileAllSchemas()).toBeGreaterThan(500);
    expect(ctx.app.compileAllSchemas()).toBe(0);
  });
});
