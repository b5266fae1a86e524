import type { Api } from './api.js';
import type { LoadOutcome } from './load.js';
import type { Metric } from './report.js';
import type { ServerProcess } from './server-process.js';
import type { BenchSettings } from './settings.js';
import type { BenchDatabase } from './database.js';
import type { Truth } from './truth.js';
import type { BenchSheet } from './worksheet.js';

/** What every workload gets: where the server is, how to authenticate, and the bench worksheet. */
export interface BenchContext {
  settings: BenchSettings;
  engine: 'SQLite' | 'PostgreSQL';
  /** The running server; replaced when a profiling run restarts it (same port, same database). */
  server: ServerProcess;
  /** Auth and content-type headers for autocannon. */
  headers: Record<string, string>;
  api: Api;
  sheet: BenchSheet;
  /** The set-up application's id. */
  appId: string;
  /** The database beside the server (for what no API call does yet, such as publishing a workflow straight into its tables). */
  database: BenchDatabase;
  /** What the table holds, for checking answers; loaded after the writes, before the reads. */
  truth?: Truth;
  /** Requests per second of the bare Fastify route (see ceiling.ts), measured before the reads. */
  ceilingPerSecond?: number;
  /** Paths of the records W3 and the ceiling rotate over. */
  recordPaths?: string[];
  /** W3's requests per second, the baseline of W3t. */
  w3PerSecond?: number;
  /** Headers of the same application through the owner's personal access token (W3t). */
  tokenHeaders: () => Promise<Record<string, string>>;
  /** W4's p50, the baseline of W4m. */
  w4P50?: number;
  /** Headers of a member whose role limits them to their own records and hides two fields (W4m); made once. */
  memberHeaders: () => Promise<Record<string, string>>;
}

export const rowsPath = (ctx: BenchContext): string => `/v3/app/worksheets/${ctx.sheet.id}/rows`;

/** One record as the list returns it (only what the bench reads). */
export interface RecordRow {
  id: string;
  fields: Array<{ id: string; value: unknown }>;
}

/** One page of records as the list returns it (only what the bench reads); `total` is left out on request. */
export interface RecordPage {
  rows: RecordRow[];
  total?: number;
}

/** The value of one field of a listed record. */
export const valueOf = (row: RecordRow, fieldId: string): unknown => row.fields.find((f) => f.id === fieldId)?.value;

/** Where autocannon points and how the server's CPU is read: the part of every load that is the same. */
export const loadTarget = (ctx: BenchContext) => ({
  baseUrl: ctx.server.baseUrl,
  headers: ctx.headers,
  serverCpuSeconds: () => ctx.server.cpuSeconds(),
  serverQueries: () => ctx.server.queryCount(),
});

/** Targets of a read workload; a figure without a target is still shown. */
export interface ReadTargets {
  perSecond?: number;
  /** Percent of the ceiling's requests per second. */
  ofCeiling?: number;
  p50?: number;
  p99?: number;
  /** Database statements per request (counted on PostgreSQL only). */
  statements?: number;
}

const bounded = (target: number | undefined, bound: '>=' | '<='): Pick<Metric, 'bound' | 'target'> => (target === undefined ? {} : { bound, target });

/** The figures of a read workload: req/s, as % of the ceiling, p50, p99, and statements per request when counted. */
export function readMetrics(ctx: BenchContext, outcome: LoadOutcome, targets: ReadTargets): Metric[] {
  const metrics: Metric[] = [{ label: '', value: outcome.perSecond, unit: 'req/s', ...bounded(targets.perSecond, '>=') }];
  if (ctx.ceilingPerSecond) metrics.push({ label: '=', value: (outcome.perSecond / ctx.ceilingPerSecond) * 100, unit: '% of ceiling', ...bounded(targets.ofCeiling, '>=') });
  metrics.push({ label: 'p50', value: outcome.latency.p50, unit: 'ms', ...bounded(targets.p50, '<=') });
  metrics.push({ label: 'p99', value: outcome.latency.p99, unit: 'ms', ...bounded(targets.p99, '<=') });
  const requests = outcome.ok + outcome.non2xx + outcome.badBodies;
  if (outcome.queries !== undefined && requests > 0) {
    metrics.push({ label: '', value: outcome.queries / requests, unit: 'statements/request', ...bounded(targets.statements, '<=') });
  }
  return metrics;
}

/** The path of the list call. */
export const listPath = (ctx: BenchContext): string => `${rowsPath(ctx)}/list`;
