import { loadTarget, type BenchContext, type RecordPage } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { createBenchSheet, FIELD_COUNT, recordFields } from '../worksheet.js';

const CONNECTIONS = 2;
/** Up to this many batches the bodies are built before the run; beyond (BENCH_MILLION) as they are sent. */
const PREBUILT_BATCHES = 200;

/**
 * W1: fills the table the reads read, 1,000 records per request; the figure is records per second.
 * W1n (`recordLogs` false) writes the same records to a worksheet of its own whose record log is
 * off: the baseline the log's cost is measured against.
 */
export async function batchInsert(ctx: BenchContext, recordLogs = true): Promise<WorkloadResult> {
  const { records, batchSize } = ctx.settings;
  const id = recordLogs ? 'W1' : 'W1n';
  const sheet = recordLogs ? ctx.sheet : await createBenchSheet(ctx.api, 'Bench W1n', false);
  const rowsPath = `/v3/app/worksheets/${sheet.id}/rows`;
  const batches = records / batchSize;
  const bodyOf = (batch: number): string =>
    JSON.stringify({ rows: Array.from({ length: batchSize }, (_, i) => ({ fields: recordFields(sheet, batch * batchSize + i + 1) })) });
  // Built up front so the bench process spends no CPU on bodies while the server is being measured;
  // 1,000 bodies of 1,000 records would not fit in memory, so the million-record load builds them on the way.
  const prebuilt = batches <= PREBUILT_BATCHES ? Array.from({ length: batches }, (_, batch) => bodyOf(batch)) : undefined;
  let created = 0;
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    amount: batches,
    timeoutSeconds: 120,
    request: (i) => ({ path: `${rowsPath}/batch`, body: prebuilt ? prebuilt[i % batches] : bodyOf(i % batches) }),
    checkBody: (body) => {
      const ids = (JSON.parse(body) as { data?: { rowIds?: string[] } }).data?.rowIds?.length ?? 0;
      created += ids;
      return ids === batchSize;
    },
  });
  const stored = await ctx.api.call<RecordPage>('POST', `${rowsPath}/list`, { pageSize: 1 });
  return {
    id,
    title: `batch insert ${records / 1000}k x ${FIELD_COUNT} fields${recordLogs ? '' : ', record log off'} (${batchSize} per request, ${CONNECTIONS} conns)`,
    // The target is set for 100,000 records; the million-record load and the log-off baseline are shown for information.
    metrics: [{ label: '', value: created / outcome.seconds, unit: 'records/s', ...(ctx.settings.million || !recordLogs ? {} : { bound: '>=' as const, target: 40_000 }) }],
    failures: outcome.non2xx + outcome.errors + outcome.badBodies + (stored.total === records ? 0 : 1),
    cost: cpuCost(outcome.cpu, created, 'record'),
    details: { ...outcome, recordsCreated: created, recordsInTable: stored.total, requestBytes: Buffer.byteLength(prebuilt?.[0] ?? bodyOf(0)) },
  };
}
