import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One measured figure and, when it has one, the bound it must meet (without a bound it is shown for information). */
export interface Metric {
  label: string;
  value: number;
  unit: string;
  bound?: '>=' | '<=';
  target?: number;
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
  /** Why the workload could not be measured (e.g. the endpoint does not exist yet); it then neither passes nor fails. */
  unavailable?: string;
  /** A remark printed after the line. */
  note?: string;
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

export const meets = (m: Metric): boolean =>
  m.bound === undefined || m.target === undefined || (m.bound === '>=' ? m.value >= m.target : m.value <= m.target);
/** Whether the workload has any target here (some have none on PostgreSQL): without one it is information. */
export const hasTarget = (r: WorkloadResult): boolean => r.unavailable === undefined && r.metrics.some((m) => m.bound !== undefined);
export const passed = (r: WorkloadResult): boolean => r.unavailable === undefined && r.failures === 0 && r.metrics.every(meets);

type Verdict = 'PASS' | 'FAIL' | 'INFO' | 'NOT AVAILABLE';
export function verdict(r: WorkloadResult): Verdict {
  if (r.unavailable !== undefined) return 'NOT AVAILABLE';
  if (r.failures > 0) return 'FAIL';
  if (!hasTarget(r)) return 'INFO';
  return passed(r) ? 'PASS' : 'FAIL';
}

const whole = (n: number): string => Math.round(n).toLocaleString('en-US');
function figure(m: Metric): string {
  if (m.unit === 'ms') return `${m.value.toFixed(1)} ms`;
  if (m.unit.startsWith('statements')) return `${m.value.toFixed(2)} ${m.unit}`;
  if (m.unit.startsWith('%') && m.value < 10) return `${m.value.toFixed(1)} ${m.unit}`;
  return `${whole(m.value)} ${m.unit}`;
}
const targetOf = (m: Metric): string => (m.bound === undefined || m.target === undefined ? '' : ` (target ${m.bound} ${whole(m.target)})`);

/** `W3 get record by id: 13,100 req/s (target >= 12,000), p99 9.0 ms (target <= 15) PASS` */
export function formatLine(r: WorkloadResult): string {
  const metrics = r.unavailable !== undefined ? `not available: ${r.unavailable}` : r.metrics.map((m) => `${m.label ? `${m.label} ` : ''}${figure(m)}${targetOf(m)}`).join(', ');
  const failures = r.failures > 0 ? ` [${r.failures.toLocaleString('en-US')} failed requests]` : '';
  const lines = [`${r.id} ${r.title}: ${metrics}${failures} ${verdict(r)}`];
  if (r.note) lines.push(`    ${r.note}`);
  if (r.cost) {
    const c = r.cost;
    const perCore = c.serverMsPerUnit > 0 ? ` (one core of server CPU = ~${whole(1000 / c.serverMsPerUnit)} ${c.unit}s/s)` : '';
    lines.push(`    CPU: server ${c.serverMsPerUnit.toFixed(3)} ms per ${c.unit}${perCore}, autocannon ${c.benchMsPerUnit.toFixed(3)} ms per ${c.unit}`);
  }
  return lines.join('\n');
}

export function formatSummary(results: WorkloadResult[]): string {
  const judged = results.filter((r) => hasTarget(r) || r.failures > 0);
  const failed = judged.filter((r) => verdict(r) === 'FAIL').map((r) => r.id);
  const unavailable = results.filter((r) => r.unavailable !== undefined).map((r) => r.id);
  const tail = unavailable.length > 0 ? ` Not available: ${unavailable.join(', ')}.` : '';
  return failed.length === 0
    ? `Summary: all ${judged.length} workloads with a target met it.${tail}`
    : `Summary: ${judged.length - failed.length} of ${judged.length} workloads with a target met it; missed: ${failed.join(', ')}.${tail}`;
}

/** Writes the run to .bench/last-run.json (git-ignored) for comparisons. */
export async function writeResults(root: string, run: Record<string, unknown>, results: WorkloadResult[]): Promise<string> {
  const dir = join(root, '.bench');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'last-run.json');
  const body = { ...run, results: results.map((r) => ({ ...r, pass: passed(r), verdict: verdict(r) })) };
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
