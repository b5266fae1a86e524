import { loadTarget, readMetrics, rowsPath, type BenchContext } from '../context.js';
import { waitForIndexes } from '../indexes.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';
import { STATUS_OPTIONS } from '../worksheet.js';

const CONNECTIONS = 1;

interface PivotOut {
  pivot: Array<{ rows: Record<string, unknown>; values: Record<string, unknown> }>;
}

/** Four groups, one per status, each with the count and price sum the generator gives. */
function checkPivot(ctx: BenchContext, out: PivotOut): string | undefined {
  const { status, price } = ctx.sheet.field;
  const expected = ctx.truth!.byStatus;
  if (!Array.isArray(out.pivot) || out.pivot.length !== expected.length) return `${out.pivot?.length} groups, expected ${expected.length}`;
  for (const group of out.pivot) {
    const text = group.rows[status];
    const index = STATUS_OPTIONS.indexOf(String(text));
    if (index < 0) return `a group of status ${JSON.stringify(text)}`;
    const count = Number(group.values.record_count);
    const sum = Number(group.values[price]);
    if (count !== expected[index].count) return `status ${text}: count ${count}, expected ${expected[index].count}`;
    // Within half a cent per thousand records: an engine may sum in floating point.
    if (!(Math.abs(sum * 100 - expected[index].sumCents) <= Math.max(1, expected[index].count / 2000))) {
      return `status ${text}: sum ${sum}, expected ${expected[index].sumCents / 100}`;
    }
  }
  return undefined;
}

/** W5: pivot by a single choice, SUM of price and COUNT of records, one connection; "not available" while the endpoint is missing. */
export async function pivotByStatus(ctx: BenchContext): Promise<WorkloadResult> {
  const { status, price } = ctx.sheet.field;
  const path = `${rowsPath(ctx)}/pivot`;
  const body = JSON.stringify({ rows: [{ field: status }], values: [{ field: price, aggregation: 'SUM' }, { field: 'record_count', aggregation: 'COUNT' }], pageSize: 100 });
  const records = `${(ctx.truth!.records / 1000).toFixed(0)}k records`;
  const title = `pivot by status, SUM(price) and COUNT (${records}; ${CONNECTIONS} conn, ${ctx.settings.seconds} s)`;
  const probe = await fetch(`${ctx.server.baseUrl}${path}`, { method: 'POST', headers: ctx.headers, body });
  const probeText = await probe.text();
  if (probe.status === 404) return { id: 'W5', title, metrics: [], failures: 0, unavailable: `POST ${'…/rows/pivot'} answers HTTP 404`, details: { response: probeText.slice(0, 300) } };
  const envelope = JSON.parse(probeText) as { success?: boolean; data?: PivotOut };
  const wrong = !probe.ok || envelope.success !== true ? `HTTP ${probe.status}: ${probeText.slice(0, 300)}` : checkPivot(ctx, envelope.data!);
  if (wrong) throw new Error(`W5: the pivot is wrong: ${wrong}`);
  // The pivot asks for an index holding the grouped and summed columns (or a list's index already
  // holds them): it is built before the measurement, so a table scan is not what is measured.
  const index = await waitForIndexes(ctx, [[status, price]], () => fetch(`${ctx.server.baseUrl}${path}`, { method: 'POST', headers: ctx.headers, body }).then((r) => r.text()));
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: () => ({ path, body }),
  });
  const target = ctx.engine !== 'SQLite' ? {} : { p50: ctx.settings.million ? 800 : 60 };
  return {
    id: 'W5',
    title,
    metrics: readMetrics(ctx, outcome, target),
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    note: `read indexes: ${index.how} (${(index.ms / 1000).toFixed(1)} s)`,
    details: { ...outcome, indexWait: index },
  };
}
