import { Api, authHeaders } from '../../bench/api.js';
import { runSetup } from '../../bench/server-process.js';
import { spawnServer, waitUntilServing, type ServerProcess } from '../helpers/processes.js';
import { startBatchWriters, type WriterStats } from './batch-writers.js';
import { checkRows, type CheckResult } from './check-rows.js';
import { createCrashSheet } from './crash-sheet.js';
import { Ledger } from './ledger.js';
import { readAllRows } from './stored-rows.js';
import { deriveSeed, newSeed, SeededRandom } from './seeded-random.js';

/**
 * Crash safety as a test: the built server (`node dist/main.js`) is killed with SIGKILL while
 * clients send batch writes, restarted on the same database, and what it holds is checked against
 * what the clients were told (see check-rows.ts). The database accumulates over the trials, so
 * every restart re-checks the writes of all earlier trials too.
 */

export interface CrashTrialOptions {
  engine: 'sqlite' | 'postgres';
  /** An empty database (SQLite file or PostgreSQL schema); set up here with `tabularium setup`. */
  databaseUrl: string;
  trials: number;
  /** Replays a run's choices (sizes, targets, kill delays); a new one is drawn and logged when absent. */
  seed?: number;
  log?: (line: string) => void;
  /** Concurrent writing clients (default 3: enough to have several writes in flight on 2 cores). */
  clients?: number;
  /** Rows per batch create (default 50–300). */
  batchRows?: { min: number; max: number };
  /** The kill comes this long after the clients start (default 150–900 ms). */
  killAfterMs?: { min: number; max: number };
}

export interface TrialReport {
  trial: number;
  killAfterMs: number;
  /** Restarting the server and reading back and checking every row. */
  restartAndCheckMs: number;
  writers: WriterStats;
  check: CheckResult;
}

export interface CrashRunSummary {
  engine: CrashTrialOptions['engine'];
  seed: number;
  trials: TrialReport[];
  acknowledgedBatches: number;
  acknowledgedUpdates: number;
  /** Rows read back and checked, summed over the checks after each restart. */
  rowsChecked: number;
  /** Rows in the database at the end. */
  rowsStored: number;
}

/** What a run found wrong; the message lists the violations with the engine, trial and seed. */
export class CrashSafetyViolation extends Error {
  constructor(
    readonly engine: string,
    readonly seed: number,
    readonly trial: number,
    readonly violations: string[],
  ) {
    const shown = violations.slice(0, 20).map((v) => `  - ${v}`);
    if (violations.length > shown.length) shown.push(`  … and ${violations.length - shown.length} more`);
    super(`crash safety violated on ${engine} in trial ${trial} (seed ${seed}, replay with CRASH_SEED=${seed}):\n${shown.join('\n')}`);
    this.name = 'CrashSafetyViolation';
  }
}

/** Starts the built server on the database, with settings of its own added (`env`), and waits until it serves. */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  // Rate limits off: the writers send as fast as they can, and a 429 is not what a crash trial is about.
  const server = await spawnServer(['dist/main.js'], { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT: '0', RATE_LIMIT_PER_IP: '0', ...env });
  try {
    await waitUntilServing(server, 30_000);
  } catch (error) {
    await server.stop('SIGKILL');
    throw error;
  }
  return server;
}

function describeTrial(report: TrialReport, trials: number, rowsStored: number): string {
  const { writers: w, check: c } = report;
  return (
    `trial ${report.trial}/${trials}: killed after ${report.killAfterMs} ms, writes cut off: ${w.lost}; ` +
    `acknowledged ${w.batchesAcknowledged}/${w.batchesSent} batch creates, ${w.updatesAcknowledged}/${w.updatesSent} batch updates; ` +
    `in flight: ${c.inFlightBatchesCommitted} creates committed, ${c.inFlightBatchesAbsent} absent, ${c.inFlightUpdatesApplied} updates applied, ${c.inFlightUpdatesNotApplied} not; ` +
    `${rowsStored.toLocaleString('en-US')} rows checked (restart and check ${report.restartAndCheckMs} ms)`
  );
}

/**
 * Runs `trials` kill-and-restart trials on one database and checks after each restart.
 * Throws `CrashSafetyViolation` at the first trial that finds anything wrong.
 * @example await runCrashTrials({ engine: 'sqlite', databaseUrl: 'sqlite:/tmp/x/crash.db', trials: 3, log: console.log });
 */
export async function runCrashTrials(options: CrashTrialOptions): Promise<CrashRunSummary> {
  const seed = options.seed ?? newSeed();
  const log = options.log ?? (() => undefined);
  const killDelays = new SeededRandom(deriveSeed(seed, 0));
  const killAfter = options.killAfterMs ?? { min: 150, max: 900 };
  const ledger = new Ledger();
  const summary: CrashRunSummary = { engine: options.engine, seed, trials: [], acknowledgedBatches: 0, acknowledgedUpdates: 0, rowsChecked: 0, rowsStored: 0 };
  log(`${options.engine}: ${options.trials} trials, seed ${seed}`);

  const headers = authHeaders(await runSetup(options.databaseUrl));
  let server = await startServer(options.databaseUrl);
  try {
    const sheet = await createCrashSheet(new Api(server.url, headers));
    for (let trial = 1; trial <= options.trials; trial++) {
      const killAfterMs = killDelays.int(killAfter.min, killAfter.max);
      const writers = startBatchWriters({
        baseUrl: server.url,
        headers,
        sheet,
        ledger,
        seed,
        trial,
        clients: options.clients ?? 3,
        batchRows: options.batchRows ?? { min: 50, max: 300 },
        updateShare: 0.3,
      });
      // The random delay is the point of the test: the kill lands wherever the writes happen to be.
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      writers.stop();
      const ended = await server.stop('SIGKILL');
      const stats = await writers.finished;
      if (ended !== 'SIGKILL') throw new Error(`trial ${trial}: the server had already exited (${ended}) before the kill:\n${server.output().slice(-3000)}`);

      const restarted = Date.now();
      server = await startServer(options.databaseUrl);
      const stored = await readAllRows(new Api(server.url, headers), sheet);
      const check = checkRows(stored, ledger);
      const violations = [...stats.wrongAnswers.map((answer) => `wrong answer before the kill: ${answer}`), ...check.violations];
      if (violations.length > 0) throw new CrashSafetyViolation(options.engine, seed, trial, violations);

      const report: TrialReport = { trial, killAfterMs, restartAndCheckMs: Date.now() - restarted, writers: stats, check };
      summary.trials.push(report);
      summary.acknowledgedBatches += stats.batchesAcknowledged;
      summary.acknowledgedUpdates += stats.updatesAcknowledged;
      summary.rowsChecked += check.rowsChecked;
      summary.rowsStored = check.rowsChecked;
      log(describeTrial(report, options.trials, check.rowsChecked));
    }
    const code = await server.stop('SIGTERM');
    if (code !== 0) throw new Error(`the server did not stop cleanly on SIGTERM (exit ${code}):\n${server.output().slice(-3000)}`);
    return summary;
  } finally {
    await server.stop('SIGKILL');
  }
}
