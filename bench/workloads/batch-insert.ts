import { loadTarget, type BenchContext, type RecordPage } from '../context.js';
import { addOutcomes, runLoad, type LoadOutcome } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { createBenchSheet, FIELD_COUNT, recordFields, type BenchSheet } from '../worksheet.js';

const CONNECTIONS = 2;
/** Up to this many batches the bodies are built before the run; beyond (BENCH_MILLION) as they are sent. */
const PREBUILT_BATCHES = 200;

/** Batches `from` to `from + count - 1` of a sheet's records, sent as fast as two connections go. */
async function insertBatches(ctx: BenchContext, sheet: BenchSheet, from: number, count: number): Promise<{ outcome: LoadOutcome; created: number; requestBytes: number }> {
  const { batchSize } = ctx.settings;
  const bodyOf = (batch: number): string =>
    JSON.stringify({ rows: Array.from({ length: batchSize }, (_, i) => ({ fields: recordFields(sheet, batch * batchSize + i + 1) })) });
  // Built up front so the bench process spends no CPU on bodies while the server is being measured;
  // 1,000 bodies of 1,000 records would not fit in memory, so the million-record load builds them on the way.
  const prebuilt = count <= PREBUILT_BATCHES ? Array.from({ length: count }, (_, i) => bodyOf(from + i)) : undefined;
  let created = 0;
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    amount: count,
    timeoutSeconds: 120,
    request: (i) => ({ path: `/v3/app/worksheets/${sheet.id}/rows/batch`, body: prebuilt ? prebuilt[i % count] : bodyOf(from + (i % count)) }),
    checkBody: (body) => {
      const ids = (JSON.parse(body) as { data?: { rowIds?: string[] } }).data?.rowIds?.length ?? 0;
      created += ids;
      return ids === batchSize;
    },
  });
  return { outcome, created, requestBytes: Buffer.byteLength(prebuilt?.[0] ?? bodyOf(from)) };
}

async function resultOf(ctx: BenchContext, id: 'W1' | 'W1n', sheet: BenchSheet, runs: Array<Awaited<ReturnType<typeof insertBatches>>>): Promise<WorkloadResult> {
  const { records, batchSize } = ctx.settings;
  const outcome = addOutcomes(runs.map((r) => r.outcome));
  const created = runs.reduce((n, r) => n + r.created, 0);
  const stored = await ctx.api.call<RecordPage>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 1 });
  const logged = id === 'W1';
  return {
    id,
    title: `batch insert ${records / 1000}k x ${FIELD_COUNT} fields${logged ? '' : ', record log off'} (${batchSize} per request, ${CONNECTIONS} conns${runs.length > 1 ? `, in ${runs.length} parts alternating with ${logged ? 'W1n' : 'W1'}` : ''})`,
    // The target is set for 100,000 records; the million-record load and the log-off baseline are shown for information.
    metrics: [{ label: '', value: created / outcome.seconds, unit: 'records/s', ...(ctx.settings.million || !logged ? {} : { bound: '>=' as const, target: 40_000 }) }],
    failures: outcome.non2xx + outcome.errors + outcome.badBodies + (stored.total === records ? 0 : 1),
    cost: cpuCost(outcome.cpu, created, 'record'),
    details: { ...outcome, recordsCreated: created, recordsInTable: stored.total, requestBytes: runs[0].requestBytes },
  };
}

/** W1: fills the table the reads read, 1,000 records per request; the figure is records per second. */
export async function batchInsert(ctx: BenchContext): Promise<WorkloadResult> {
  const batches = ctx.settings.records / ctx.settings.batchSize;
  return resultOf(ctx, 'W1', ctx.sheet, [await insertBatches(ctx, ctx.sheet, 0, batches)]);
}

/**
 * W1 and W1n: the same load with the record log on (the bench worksheet, which the reads read) and
 * off (a worksheet of its own), the baseline the log's cost is measured against (Wlog). They run in
 * alternating halves (off, on, off, on), so that what changes over the run (the database growing,
 * the machine's other load) falls on both alike.
 */
export async function batchInsertWithAndWithoutLog(ctx: BenchContext): Promise<WorkloadResult[]> {
  const half = ctx.settings.records / ctx.settings.batchSize / 2;
  const unlogged = await createBenchSheet(ctx.api, 'Bench W1n', false);
  const runs = { on: [] as Array<Awaited<ReturnType<typeof insertBatches>>>, off: [] as Array<Awaited<ReturnType<typeof insertBatches>>> };
  for (const part of [0, 1]) {
    runs.off.push(await insertBatches(ctx, unlogged, part * half, half));
    runs.on.push(await insertBatches(ctx, ctx.sheet, part * half, half));
  }
  return [await resultOf(ctx, 'W1n', unlogged, runs.off), await resultOf(ctx, 'W1', ctx.sheet, runs.on)];
}
