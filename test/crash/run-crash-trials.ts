import { enginesUnderTest, type TestDatabase } from '../helpers/databases.js';
import { killAllServers } from '../helpers/processes.js';
import { CrashSafetyViolation, runCrashTrials, type CrashRunSummary } from './crash-trials.js';
import { newSeed } from './seeded-random.js';
import { runWorkflowCrashTrials, type WorkflowCrashSummary } from './workflow-crash-trials.js';

/**
 * `npm run test:crash`: CRASH_TRIALS kill-and-restart trials (default 30) per engine of batch
 * writes, then as many of workflow runs (killed by CRASH_AT at the engine's crash points), SQLite
 * always and PostgreSQL when TEST_DATABASE_URL is set. CRASH_SEED replays a run's choices.
 * Exits non-zero on any violation. `npm run test:crash` builds dist/ first.
 */

function readWholeNumber(name: string, fallback: number | undefined): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a whole number ≥ 0, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return value;
}

function describeSummary(summary: CrashRunSummary, seconds: number): string {
  const inFlight = summary.trials.reduce((sum, t) => sum + t.writers.lost, 0);
  return (
    `${summary.engine}: ${summary.trials.length} trials passed in ${seconds.toFixed(0)} s (seed ${summary.seed}): ` +
    `${summary.acknowledgedBatches.toLocaleString('en-US')} acknowledged batch creates and ${summary.acknowledgedUpdates.toLocaleString('en-US')} batch updates, ` +
    `${inFlight} writes cut off by the kills, ${summary.rowsChecked.toLocaleString('en-US')} rows checked over all restarts, ` +
    `${summary.rowsStored.toLocaleString('en-US')} in the database at the end`
  );
}

function describeWorkflowSummary(summary: WorkflowCrashSummary, seconds: number): string {
  const byPoint = new Map<string, number>();
  for (const trial of summary.trials) byPoint.set(trial.point, (byPoint.get(trial.point) ?? 0) + 1);
  const kills = [...byPoint].map(([point, n]) => `${n} at ${point}`).join(', ');
  return `${summary.engine} workflows: ${summary.trials.length} trials passed in ${seconds.toFixed(0)} s (seed ${summary.seed}): kills ${kills}; ${summary.records.toLocaleString('en-US')} triggered runs, each finished once`;
}

/** Runs one engine's part on a database of its own; the line for the summary, or throws. */
async function onFreshDatabase(engine: { create(): Promise<TestDatabase> }, work: (url: string) => Promise<string>): Promise<string> {
  let database: TestDatabase | undefined;
  try {
    database = await engine.create();
    return await work(database.url);
  } finally {
    await killAllServers();
    await database?.drop();
  }
}

async function main(): Promise<number> {
  const trials = readWholeNumber('CRASH_TRIALS', 30)!;
  const seed = readWholeNumber('CRASH_SEED', undefined) ?? newSeed();
  console.log(`Tabularium crash trials: ${trials} per engine, seed ${seed} (replay with CRASH_SEED=${seed})`);
  const summaries: string[] = [];
  let failed = false;
  for (const engine of enginesUnderTest()) {
    if (engine.skipReason) {
      summaries.push(`${engine.name}: SKIPPED (${engine.skipReason}; set TEST_DATABASE_URL=postgres://… to run it)`);
      console.log(`\n${summaries.at(-1)}`);
      continue;
    }
    let started = Date.now();
    const parts: Array<[string, (url: string) => Promise<string>]> = [
      [engine.name, async (url) => describeSummary(await runCrashTrials({ engine: engine.name, databaseUrl: url, trials, seed, log: (line) => console.log(`  ${line}`) }), (Date.now() - started) / 1000)],
      [`${engine.name} workflows`, async (url) => describeWorkflowSummary(await runWorkflowCrashTrials({ engine: engine.name, databaseUrl: url, trials, seed, log: (line) => console.log(`  ${line}`) }), (Date.now() - started) / 1000)],
    ];
    for (const [name, part] of parts) {
      console.log('');
      started = Date.now();
      try {
        summaries.push(await onFreshDatabase(engine, part));
      } catch (error) {
        failed = true;
        summaries.push(`${name}: FAILED`);
        // A violation's message says all; anything else is the harness failing, so show where.
        console.error(`\n${error instanceof CrashSafetyViolation ? error.message : error instanceof Error ? error.stack : String(error)}`);
      }
    }
  }
  console.log(`\nSummary (seed ${seed}):\n${summaries.map((s) => `  ${s}`).join('\n')}`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
