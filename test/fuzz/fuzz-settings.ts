/**
 * How long the fuzzer runs and from which seed. `npm test` runs a bounded number of requests
 * per engine from a fixed seed; `npm run fuzz` (FUZZ_LONG=1) twenty times as many from a new seed. FUZZ_SEED replays a run (the
 * seed is printed at the start and in every failure), FUZZ_PATH replays just the counterexample
 * fast-check printed, FUZZ_RUNS overrides the number of requests.
 */

/** Requests per engine in `npm test`: measured to take well under 30 s per engine on a shared 2-core machine. */
const RUNS_IN_NPM_TEST = 1_500;

const long = process.env.FUZZ_LONG === '1';

/**
 * `npm test` fuzzes from this seed, so that CI, which must land or not on the change itself, never
 * fails on a request no one chose; `npm run fuzz` draws a new seed each run to explore.
 */
const NPM_TEST_SEED = 20_261_123;

function integerFrom(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(text)}`);
  return value;
}

export const fuzzSettings = {
  long,
  seed: integerFrom('FUZZ_SEED') ?? (long ? Math.floor(Math.random() * 2 ** 31) : NPM_TEST_SEED),
  path: process.env.FUZZ_PATH || undefined,
  numRuns: integerFrom('FUZZ_RUNS') ?? (long ? 20 * RUNS_IN_NPM_TEST : RUNS_IN_NPM_TEST),
  /**
   * A guard, not the bound: on a slow or busy machine the run stops after this long (and says so)
   * instead of overrunning the test timeout. The bound is numRuns.
   */
  timeLimitMs: long ? 30 * 60_000 : 60_000,
  /** Shrinking replays requests against a live server; past this many steps the counterexample is good enough. */
  maxShrinks: 200,
};

/** The line that lets anyone replay a run. */
export function replayHint(engine: string, path?: string): string {
  const parts = [`FUZZ_SEED=${fuzzSettings.seed}`];
  if (path) parts.push(`FUZZ_PATH=${path}`);
  if (fuzzSettings.long) parts.push('FUZZ_LONG=1');
  const database = engine === 'postgres' ? 'TEST_DATABASE_URL=… ' : '';
  return `${database}${parts.join(' ')} npx vitest run test/fuzz/openapi-routes.test.ts`;
}
