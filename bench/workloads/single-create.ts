import { loadTarget, type BenchContext } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { createBenchSheet, recordFields } from '../worksheet.js';

const CONNECTIONS = 16;
const DISTINCT_BODIES = 1_000;

/**
 * W2: one record per request, as interactive clients and integrations write. It writes to a second
 * worksheet of the same fields, so that the reads see exactly W1's records, however many W2 made.
 */
export async function singleCreate(ctx: BenchContext, recordLogs = true): Promise<WorkloadResult> {
  const id = recordLogs ? 'W2' : 'W2n';
  const sheet = await createBenchSheet(ctx.api, `Bench ${id}`, recordLogs);
  const first = ctx.settings.records + 1;
  const bodies = Array.from({ length: DISTINCT_BODIES }, (_, i) => JSON.stringify({ fields: recordFields(sheet, first + i) }));
  const path = `/v3/app/worksheets/${sheet.id}/rows`;
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path, body: bodies[i % DISTINCT_BODIES] }),
  });
  return {
    id,
    title: `single-record create${recordLogs ? '' : ', record log off'} (${CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    // Without the log the figure is the baseline of the log's cost (W-log), not a target of its own.
    metrics: [{ label: '', value: outcome.perSecond, unit: 'records/s', ...(recordLogs ? { bound: '>=' as const, target: 4_000 } : {}) }],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'record'),
    details: { ...outcome },
  };
}
