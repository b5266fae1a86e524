import { Api, authHeaders } from '../../bench/api.js';
import { runSetup } from '../../bench/server-process.js';
import { CRASH_POINTS, type CrashPoint } from '../../src/config/index.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import type { ServerProcess } from '../helpers/processes.js';
import { CrashSafetyViolation, startServer as startCrashServer } from './crash-trials.js';
import { checkExactlyOnce, createCounterSheet, waitForRunsToEnd, type CounterSheet } from './exactly-once.js';
import { startRecordWriters } from './record-writers.js';
import { deriveSeed, newSeed, SeededRandom } from './seeded-random.js';

/**
 * Crash recovery of workflow runs as a test: the built server runs the counter workflow
 * (`exactly-once.ts`) on every record clients create, and kills itself with SIGKILL (CRASH_AT) at
 * one of the engine's crash points: right after a triggering write committed, before its run
 * starts (`run-start`); between two steps of a run (`between-steps`); inside a step's transaction
 * right before its COMMIT (`step-commit`). Restarted on the same database, it must finish every
 * run, each step applied once, and leave no job behind. Trials cycle through the points; the
 * arrival that kills is drawn from the seed. The database accumulates, so each check covers the
 * records of every earlier trial too.
 */

export interface WorkflowCrashOptions {
  engine: 'sqlite' | 'postgres';
  /** An empty database (SQLite file or PostgreSQL schema); set up here with `tabularium setup`. */
  databaseUrl: string;
  trials: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface WorkflowCrashSummary {
  engine: WorkflowCrashOptions['engine'];
  seed: number;
  trials: Array<{ trial: number; point: CrashPoint; nth: number; acknowledged: number; lost: number; records: number; recoverMs: number }>;
  /** Records (each one run) checked after the last restart. */
  records: number;
}

/** Every server of a trial: leases short enough that a killed server's jobs are taken over within seconds, polls quick. */
const SERVER_ENV = { WORKER_LEASE_MS: '3000', WORKER_POLL_MS: '50' };

const startServer = (databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> => startCrashServer(databaseUrl, { ...SERVER_ENV, ...env });

/** Waits for the server to end, for at most `ms`; the way it ended, or null if it still runs. */
function endedWithin(server: ServerProcess, ms: number): Promise<number | string | null> {
  return Promise.race([server.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
}

/**
 * Runs the trials on one database and checks after each restart. Throws `CrashSafetyViolation`
 * at the first trial that finds a run lost, doubled or unfinished.
 * @example await runWorkflowCrashTrials({ engine: 'sqlite', databaseUrl: 'sqlite:/tmp/x/wf.db', trials: 3 });
 */
export async function runWorkflowCrashTrials(options: WorkflowCrashOptions): Promise<WorkflowCrashSummary> {
  const seed = options.seed ?? newSeed();
  const log = options.log ?? (() => undefined);
  const random = new SeededRandom(deriveSeed(seed, 7));
  const setup = await runSetup(options.databaseUrl);
  const headers = authHeaders(setup);
  const database: Database = openDatabase(options.databaseUrl);
  const summary: WorkflowCrashSummary = { engine: options.engine, seed, trials: [], records: 0 };
  const acknowledged = new Set<string>();
  let server = await startServer(options.databaseUrl);
  log(`${options.engine}: ${options.trials} workflow crash trials, seed ${seed}`);
  try {
    const sheet: CounterSheet = await createCounterSheet(new Api(server.url, headers), database.db, setup.app.appId, 'Workflow crash trials');
    await server.stop('SIGTERM');
    for (let trial = 1; trial <= options.trials; trial++) {
      const point = CRASH_POINTS[(trial - 1) % CRASH_POINTS.length];
      const nth = random.int(1, 25);
      server = await startServer(options.databaseUrl, { CRASH_AT: `${point}:${nth}` });
      const writers = startRecordWriters({ baseUrl: server.url, headers, worksheetId: sheet.id, titleField: sheet.field.title, clients: 2, rowsPerBatch: random.int(1, 8), tag: `t${trial}` });
      const ended = await endedWithin(server, 60_000);
      writers.stop();
      const written = await writers.finished;
      if (ended !== 'SIGKILL') {
        await server.stop('SIGKILL');
        throw new Error(`trial ${trial}: the server did not kill itself at ${point}:${nth} within 60 s (it ${ended === null ? 'still ran' : `ended with ${ended}`}):\n${server.output().slice(-3000)}`);
      }
      if (written.refused.length > 0) throw new CrashSafetyViolation(options.engine, seed, trial, written.refused.map((r) => `a write was refused before the kill: ${r}`));
      for (const id of written.acknowledged) acknowledged.add(id);

      const restarted = Date.now();
      server = await startServer(options.databaseUrl);
      await waitForRunsToEnd(database.db, sheet, 60_000, () => `\n${server.output().slice(-3000)}`);
      const check = await checkExactlyOnce(database.db, sheet, acknowledged);
      if (check.violations.length > 0) throw new CrashSafetyViolation(options.engine, seed, trial, check.violations.map((v) => `after a kill at ${point}:${nth}: ${v}`));
      const report = { trial, point, nth, acknowledged: written.acknowledged.length, lost: written.lost, records: check.records, recoverMs: Date.now() - restarted };
      summary.trials.push(report);
      summary.records = check.records;
      log(`trial ${trial}/${options.trials}: killed at ${point} (arrival ${nth}); ${report.acknowledged} records acknowledged, ${report.lost} writes cut off; after the restart all ${report.records} records ran once (restart and drain ${report.recoverMs} ms)`);
      const code = await server.stop('SIGTERM');
      if (code !== 0) throw new Error(`trial ${trial}: the server did not stop cleanly on SIGTERM (exit ${code}):\n${server.output().slice(-3000)}`);
    }
    return summary;
  } finally {
    await server.stop('SIGKILL');
    await database.close();
  }
}
