import type { Api } from './api.js';
import type { ServerProcess } from './server-process.js';
import type { BenchSettings } from './settings.js';
import type { BenchSheet } from './worksheet.js';

/** What every workload gets: where the server is, how to authenticate, and the bench worksheet. */
export interface BenchContext {
  settings: BenchSettings;
  /** The running server; replaced when a profiling run restarts it (same port, same database). */
  server: ServerProcess;
  /** Auth and content-type headers for autocannon. */
  headers: Record<string, string>;
  api: Api;
  sheet: BenchSheet;
}

export const rowsPath = (ctx: BenchContext): string => `/v3/app/worksheets/${ctx.sheet.id}/rows`;

/** One page of records as the list returns it (only what the bench reads). */
export interface RecordPage {
  rows: Array<{ id: string; fields: Array<{ id: string; value: unknown }> }>;
  total: number;
}

/** Where autocannon points and how the server's CPU is read: the part of every load that is the same. */
export const loadTarget = (ctx: BenchContext) => ({
  baseUrl: ctx.server.baseUrl,
  headers: ctx.headers,
  serverCpuSeconds: () => ctx.server.cpuSeconds(),
});
