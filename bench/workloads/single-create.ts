import { loadTarget, type BenchContext } from '../context.js';
import { addOutcomes, runLoad, type LoadOutcome } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { createBenchSheet, recordFields, type BenchSheet } from '../worksheet.js';

const CONNECTIONS = 16;
const DISTINCT_BODIES = 1_000;

/** Single creates into one worksheet for `seconds`. */
async function createFor(ctx: BenchContext, sheet: BenchSheet, seconds: number): Promise<LoadOutcome> {
  const first = ctx.settings.records + 1;
  const bodies = Array.from({ length: DISTINCT_BODIES }, (_, i) => JSON.stringify({ fields: recordFields(sheet, first + i) }));
  const path = `/v3/app/worksheets/${sheet.id}/rows`;
  return runLoad({ ...loadTarget(ctx), method: 'POST', connections: CONNECTIONS, seconds, request: (i) => ({ path, body: bodies[i % DISTINCT_BODIES] }) });
}

function resultOf(ctx: BenchContext, id: 'W2' | 'W2n', outcome: LoadOutcome): WorkloadResult {
  const logged = id === 'W2';
  return {
    id,
    title: `single-record create${logged ? '' : ', record log off'} (${CONNECTIONS} conns, 2 x ${ctx.settings.seconds / 2} s alternating with ${logged ? 'W2n' : 'W2'})`,
    // Without the log the figure is the baseline of the log's cost (Wlog), not a target of its own.
    metrics: [{ label: '', value: outcome.perSecond, unit: 'records/s', ...(logged ? { bound: '>=' as const, target: 4_000 } : {}) }],
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'record'),
    details: { ...outcome },
  };
}

/**
 * W2: one record per request, as interactive clients and integrations write, into a worksheet of its
 * own (so that the reads see exactly W1's records); W2n the same into a worksheet whose record log is
 * off, the baseline of the log's cost (Wlog). They run in alternating halves (off, on, off, on).
 */
export async function singleCreateWithAndWithoutLog(ctx: BenchContext): Promise<WorkloadResult[]> {
  const logged = await createBenchSheet(ctx.api, 'Bench W2');
  const unlogged = await createBenchSheet(ctx.api, 'Bench W2n', false);
  const half = ctx.settings.seconds / 2;
  const runs = { on: [] as LoadOutcome[], off: [] as LoadOutcome[] };
  for (let part = 0; part < 2; part++) {
    runs.off.push(await createFor(ctx, unlogged, half));
    runs.on.push(await createFor(ctx, logged, half));
  }
  return [resultOf(ctx, 'W2n', addOutcomes(runs.off)), resultOf(ctx, 'W2', addOutcomes(runs.on))];
}
