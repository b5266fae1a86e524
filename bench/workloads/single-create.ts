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
export async function singleCreate(ctx: BenchContext): Promise<WorkloadResult> {
  const sheet = await createBenchSheet(ctx.api, 'Bench W2');
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
    id: 'W2',
    title: `single-record create (${CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics: [
      { label: '', value: outcome.perSecond, unit: 'records/s', bound: '>=', target: 4_000 },
    ],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'record'),
    details: { ...outcome },
  };
}
