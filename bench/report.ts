import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One measured figure and the bound it must meet. */
export interface Metric {
  label: string;
  value: number;
  unit: string;
  bound: '>=' | '<=';
  target: number;
}

/** What one workload reports. A workload passes when every metric meets its target and nothing failed. */
export interface WorkloadResult {
  id: string;
  title: string;
  metrics: Metric[];
  /** Requests that did not succeed: non-2xx, connection errors, rejected bodies. */
  failures: number;
  details: Record<string, unknown>;
  /** CPU per unit of work: the machine's cores are shared, so throughput alone misleads. */
  cost?: CpuCost;
}

/** CPU time the server and the load generator (this process) spent per unit of work. */
export interface CpuCost {
  serverMsPerUnit: number;
  benchMsPerUnit: number;
  unit: 'record' | 'request';
}

export function cpuCost(cpu: { serverSeconds: number; benchSeconds: number }, count: number, unit: CpuCost['unit']): CpuCost | undefined {
  if (count === 0) return undefined;
  return { serverMsPerUnit: (cpu.serverSeconds * 1000) / count, benchMsPerUnit: (cpu.benchSeconds * 1000) / count, unit };
}

export const meets = (m: Metric): boolean => (m.bound === '>=' ? m.value >= m.target : m.value <= m.target);
export const passed = (r: WorkloadResult): boolean => r.failures === 0 && r.metrics.every(meets);

const whole = (n: number): string => Math.round(n).toLocaleString('en-US');
const figure = (m: Metric): string => `${m.unit === 'ms' ? m.value.toFixed(1) : whole(m.value)} ${m.unit}`;

/** `W3 get record by id: 13,100 req/s (target >= 12,000), p99 9.0 ms (target <= 15) PASS` */
export function formatLine(r: WorkloadResult): string {
  const metrics = r.metrics.map((m) => `${m.label ? `${m.label} ` : ''}${figure(m)} (target ${m.bound} ${whole(m.target)})`).join(', ');
  const failures = r.failures > 0 ? ` [${r.failures.toLocaleString('en-US')} failed requests]` : '';
  const line = `${r.id} ${r.title}: ${metrics}${failures} ${passed(r) ? 'PASS' : 'FAIL'}`;
  if (!r.cost) return line;
  const c = r.cost;
  const perCore = c.serverMsPerUnit > 0 ? ` (one core of server CPU = ~${whole(1000 / c.serverMsPerUnit)} ${c.unit}s/s)` : '';
  return `${line}\n    CPU: server ${c.serverMsPerUnit.toFixed(3)} ms per ${c.unit}${perCore}, autocannon ${c.benchMsPerUnit.toFixed(3)} ms per ${c.unit}`;
}

export function formatSummary(results: WorkloadResult[]): string {
  const failed = results.filter((r) => !passed(r)).map((r) => r.id);
  return failed.length === 0
    ? `Summary: all ${results.length} workloads met their targets.`
    : `Summary: ${results.length - failed.length} of ${results.length} workloads met their targets; missed: ${failed.join(', ')}.`;
}

/** Writes the run to .bench/last-run.json (git-ignored) for comparisons. */
export async function writeResults(root: string, run: Record<string, unknown>, results: WorkloadResult[]): Promise<string> {
  const dir = join(root, '.bench');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'last-run.json');
  const body = { ...run, results: results.map((r) => ({ ...r, pass: passed(r) })) };
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
