import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, killAllServers } from '../helpers/processes.js';
import { runCrashTrials } from './crash-trials.js';

/**
 * The short version of `npm run test:crash` for every `npm test`: three kill-and-restart trials
 * per engine (a few seconds each, most of it the restart). The long run is documented in
 * docs/testing.md; a failure prints the seed to replay it with.
 */

const TRIALS = 3;

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describeEachEngine('crash safety under SIGKILL during batch writes', (engine) => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await killAllServers();
    await database?.drop();
  });

  it(`keeps every acknowledged batch whole over ${TRIALS} kills and restarts, with nothing partial or doubled`, async () => {
    database = await engine.create();
    const summary = await runCrashTrials({ engine: engine.name, databaseUrl: database.url, trials: TRIALS, log: (line) => console.log(`[crash ${engine.name}] ${line}`) });
    expect(summary.trials).toHaveLength(TRIALS);
    // A run that acknowledged nothing would check nothing.
    expect(summary.acknowledgedBatches).toBeGreaterThan(0);
  }, 120_000);
});
