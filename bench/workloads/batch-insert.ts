import { loadTarget, rowsPath, type BenchContext, type RecordPage } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { recordFields } from '../worksheet.js';

const CONNECTIONS = 2;

/** W1: fills the table W3 and W4 read, 1,000 records per request; the figure is records per second. */
export async function batchInsert(ctx: BenchContext): Promise<WorkloadResult> {
  const { records, batchSize } = ctx.settings;
  const batches = records / batchSize;
  // Built up front so the bench process spends no CPU on bodies while the server is being measured.
  const bodies = Array.from({ length: batches }, (_, batch) =>
    JSON.stringify({ rows: Array.from({ length: batchSize }, (_, i) => ({ fields: recordFields(ctx.sheet, batch * batchSize + i + 1) })) }),
  );
  let created = 0;
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    amount: batches,
    timeoutSeconds: 120,
    request: (i) => ({ path: `${rowsPath(ctx)}/batch`, body: bodies[i % batches] }),
    checkBody: (body) => {
      const ids = (JSON.parse(body) as { data?: { rowIds?: string[] } }).data?.rowIds?.length ?? 0;
      created += ids;
      return ids === batchSize;
    },
  });
  const stored = await ctx.api.call<RecordPage>('POST', `${rowsPath(ctx)}/list`, { pageSize: 1 });
  return {
    id: 'W1',
    title: `batch insert ${records / 1000}k x 10 fields (${batchSize} per request, ${CONNECTIONS} conns)`,
    metrics: [{ label: '', value: created / outcome.seconds, unit: 'records/s', bound: '>=', target: 40_000 }],
    failures: outcome.non2xx + outcome.errors + outcome.badBodies + (stored.total === records ? 0 : 1),
    cost: cpuCost(outcome.cpu, created, 'record'),
    details: { ...outcome, recordsCreated: created, recordsInTable: stored.total, requestBytes: Buffer.byteLength(bodies[0]) },
  };
}
