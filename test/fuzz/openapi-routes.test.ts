import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { snapshotFixture, type FixtureSnapshot } from './fixture-snapshot.js';
import { fuzzSettings, replayHint } from './fuzz-settings.js';
import { FuzzWorld } from './fuzz-world.js';
import { fuzzRoutes, type FuzzOutcome } from './route-fuzzer.js';

/**
 * Issue 5, scope item 4: malformed requests for every route of the OpenAPI document, on both
 * engines. No 5xx, every answer the envelope, and the fixed records unchanged afterwards.
 * `npm run fuzz` runs twenty times as many requests; FUZZ_SEED replays a run.
 */

const TIMEOUT_MS = fuzzSettings.timeLimitMs + 120_000;

describeApi('fuzz: malformed requests on every documented route (issue 5)', (ctx) => {
  let world: FuzzWorld;
  let before: FixtureSnapshot;
  let outcome: FuzzOutcome | undefined;

  beforeAll(async () => {
    world = new FuzzWorld(ctx);
    await world.setUp();
    before = await snapshotFixture(ctx, world);
  });

  it(
    'answers every request with the envelope, never a 5xx',
    async () => {
      // Printed first, so that the seed is on screen whatever way the test ends (a timeout included).
      console.log(`fuzz [${ctx.engine}]: seed ${fuzzSettings.seed}, up to ${fuzzSettings.numRuns} requests; replay: ${replayHint(ctx.engine)}`);
      outcome = await fuzzRoutes(ctx, world);
      const statuses = Object.entries(outcome.statuses).map(([status, n]) => `${status}×${n}`).join(' ');
      console.log(
        `fuzz [${ctx.engine}]: ${outcome.requests} requests over ${outcome.operations} operations in ${(outcome.milliseconds / 1000).toFixed(1)} s` +
          `${outcome.interrupted ? ' (stopped by the time limit)' : ''}; statuses ${statuses}`,
      );
      if (outcome.failure) expect.fail(outcome.failure);
    },
    TIMEOUT_MS,
  );

  it('leaves the fixed worksheet, its records and the application as they were', async () => {
    const after = await snapshotFixture(ctx, world);
    expect(after, `the fixture changed during the fuzz run; replay: ${replayHint(ctx.engine)}`).toEqual(before);
  });
});
