import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/connection.js';
import { queryBuilderReader } from '../db/row-reader.js';
import { JobWorker, type JobHandler } from '../jobs/index.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceContext } from '../shared/service-context.js';
import { crashSwitch } from './crash-points.js';
import type { CrashAt } from '../config/index.js';
import { sweepTimedOutRuns } from './run-limits.js';
import type { NodeServices } from './node-context.js';
import { dateSweepHandler } from './date-sweep-job.js';
import { workflowRunHandler, type RunnerDeps } from './runner.js';
import { scheduleJobHandler } from './schedule-job.js';
import { todoPort } from '../modules/workflow-instances/index.js';

/** How often a process with workers looks for runs past their timeout. */
const TIMEOUT_SWEEP_MS = 60_000;

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
  /** Handlers of other background work on the same queue (knowledge base indexing). */
  moreHandlers?: JobHandler[];
}

/**
 * The worker that runs workflows (and, later, other background jobs) in this process. Started by
 * the server unless WORKERS=0; `tabularium worker` runs one without the HTTP interface.
 */
export function createJobWorker(options: EngineOptions): JobWorker {
  const { database, clock, log } = options;
  const organizations = new Map<string, string>();
  const organizationOf = async (appId: string): Promise<string> => {
    let found = organizations.get(appId);
    if (found === undefined) {
      const row = await database.db.selectFrom('apps').select('organization_id').where('id', '=', appId).executeTakeFirst();
      found = row?.organization_id ?? '';
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
  const { db, dialect } = database;
  const deps: RunnerDeps = {
    db,
    dialect,
    clock,
    timeZone: options.timeZone,
    log,
    contextFor,
    organizationOf,
    crash: crashSwitch(options.crashAt ?? null),
    todos: todoPort,
    services: options.services,
  };
  return new JobWorker({
    db,
    dialect,
    handlers: [workflowRunHandler(deps), scheduleJobHandler(deps), dateSweepHandler(deps), ...(options.moreHandlers ?? [])],
    clock,
    log,
    concurrency: Math.max(1, options.concurrency),
    pollMs: options.pollMs,
    leaseMs: options.leaseMs ?? 60_000,
    chores: [{ name: 'workflow timeouts', everyMs: TIMEOUT_SWEEP_MS, run: () => sweepTimedOutRuns(db, dialect, clock(), log) }],
  });
}
