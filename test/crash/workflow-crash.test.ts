import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, killAllServers } from '../helpers/processes.js';
import { runWorkflowCrashTrials } from './workflow-crash-trials.js';

/**
 * The short version of the workflow part of `npm run test:crash`: one SIGKILL at each of the
 * engine's crash points (after a triggering write committed, between two steps, inside a step's
 * transaction before COMMIT), a restart after each, and every triggered run finished exactly once.
 * A failure prints the seed to replay it with (CRASH_SEED).
 */

beforeAll(ensureBuilt, 180_000);
afterAll(killAllServers);

describeEachEngine('workflow runs survive SIGKILL at every crash point', (engine) => {
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await killAllServers();
    await database?.drop();
  });

  it('finishes every triggered run once after kills at run-start, between-steps and step-commit', async () => {
    database = await engine.create();
    const summary = await runWorkflowCrashTrials({ engine: engine.name, databaseUrl: database.url, trials: 3, log: (line) => console.log(`[workflow crash ${engine.name}] ${line}`) });
    expect(summary.trials.map((t) => t.point)).toEqual(['run-start', 'between-steps', 'step-commit']);
    // A run that triggered nothing would check nothing.
    expect(summary.records).toBeGreaterThan(0);
  }, 240_000);
});
