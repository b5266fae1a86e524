import type { Memory } from '../server-process.js';
import type { WorkloadResult } from '../report.js';

/** W6: the server's resident memory, idle (after start and worksheet setup) and after the workloads. */
/**
 * W6. With one server process, its resident memory. With several (HTTP_PROCESSES > 1), the targets
 * (set for the one process of the foundation) are held against the largest server process, and the
 * whole tree (supervisor and every process) is printed beside it.
 */
export function memoryResult(idle: Memory, loaded: Memory): WorkloadResult {
  const several = idle.processes > 1;
  const judged = (memory: Memory): number => (several ? memory.largestRssMb : memory.rssMb);
  return {
    id: 'W6',
    title: several ? `server memory (RSS of the largest of ${idle.processes - 1} server processes; all ${idle.processes} with the supervisor: idle ${Math.round(idle.rssMb)} MB, after ${Math.round(loaded.rssMb)} MB)` : 'server memory (RSS)',
    metrics: [
      { label: 'idle', value: judged(idle), unit: 'MB', bound: '<=', target: 150 },
      { label: 'after the workloads', value: judged(loaded), unit: 'MB', bound: '<=', target: 400 },
    ],
    failures: 0,
    details: { idleRssMb: judged(idle), loadedRssMb: judged(loaded), peakRssMb: loaded.peakRssMb, processes: idle.processes, treeIdleRssMb: idle.rssMb, treeLoadedRssMb: loaded.rssMb },
  };
}
