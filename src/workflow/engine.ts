import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/connection.js';
import { queryBuilderReader } from '../db/row-reader.js';
import { JobWorker, type JobHandler } from '../jobs/index.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceContext } from '../shared/service-context.js';
import { crashSwitch } from './crash-points.js';
import type { CrashAt } from '../config/index.js';
import type { NodeServices } from './node-context.js';
import { dateSweepHandler } from './date-sweep-job.js';
import { workflowRunHandler, type RunnerDeps } from './runner.js';
import { scheduleJobHandler } from './schedule-job.js';
import { runTodos, todoPort } from '../modules/workflow-instances/index.js';
import { organizationOfApp } from '../modules/apps/index.js';

export interface EngineOptions {
  database: Database;
  clock: () => number;
  timeZone: string;
  log: FastifyBaseLogger;
  /** The server's service context acting as `actor` (on the root connection). */
  contextOf(actor: Actor): ServiceContext;
  concurrency: number;
  pollMs: number;
  /** How long a worker holds a job before another may take it over (WORKER_LEASE_MS); a step must commit within it. */
  leaseMs?: number;
  /** CRASH_AT, for the crash-recovery tests only. */
  crashAt?: CrashAt | null;
  /** What nodes reach beyond records: mail, outbound HTTP, notices. */
  services: NodeServices;
  /** Other background jobs this worker runs beside the engine's (notification mail). */
  handlers?: JobHandler[];
}

/** What the runner is handed in a process: its database, clock, ports and services, from the engine's options. */
export function runnerDeps(options: EngineOptions): RunnerDeps {
  const { database, clock, log } = options;
  const organizations = new Map<string, string>();
  const organizationOf = async (appId: string): Promise<string> => {
    let found = organizations.get(appId);
    if (found === undefined) {
      found = (await organizationOfApp(database.db, appId)) ?? '';
      organizations.set(appId, found);
    }
    return found;
  };
  const contextFor = (actor: Actor, db: Executor, origin: ServiceContext['origin']): ServiceContext => ({
    ...options.contextOf(actor),
    db,
    // Inside a step's transaction, reads see the step's own writes.
    reader: db.isTransaction ? queryBuilderReader(db as never) : database.reader,
    ...(origin ? { origin } : {}),
  });
  return {
    db: database.db,
    dialect: database.dialect,
    clock,
    timeZone: options.timeZone,
    log,
    contextFor,
    organizationOf,
    crash: crashSwitch(options.crashAt ?? null),
    todos: todoPort,
    runTodos,
    services: options.services,
  };
}

/**
 * The worker that runs workflows (and the other background jobs it is given) in this process.
 * Started by the server unless WORKERS=0; `tabularium worker` runs one without the HTTP interface.
 * `deps` (from `runnerDeps`) may be given to watch or interfere with the runner, in tests.
 */
export function createJobWorker(options: EngineOptions, deps: RunnerDeps = runnerDeps(options)): JobWorker {
  const { clock, log } = options;
  const { db, dialect } = deps;
  return new JobWorker({
    db,
    dialect,
    handlers: [workflowRunHandler(deps), scheduleJobHandler(deps), dateSweepHandler(deps), ...(options.handlers ?? [])],
    clock,
    log,
    concurrency: Math.max(1, options.concurrency),
    pollMs: options.pollMs,
    leaseMs: options.leaseMs ?? 60_000,
  });
}
