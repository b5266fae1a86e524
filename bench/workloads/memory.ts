import type { Memory } from '../server-process.js';
import type { WorkloadResult } from '../report.js';

/** W6: the server's resident memory, idle (after start and worksheet setup) and after the workloads. */
export function memoryResult(idle: Memory, loaded: Memory): WorkloadResult {
  return {
    id: 'W6',
    title: 'server memory (RSS)',
    metrics: [
      { label: 'idle', value: idle.rssMb, unit: 'MB', bound: '<=', target: 150 },
      { label: 'after the workloads', value: loaded.rssMb, unit: 'MB', bound: '<=', target: 400 },
    ],
    failures: 0,
    details: { idleRssMb: idle.rssMb, loadedRssMb: loaded.rssMb, peakRssMb: loaded.peakRssMb },
  };
}
