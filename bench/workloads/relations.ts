import type { Api } from '../api.js';
import { loadTarget, readMetrics, type BenchContext } from '../context.js';
import { runLoad } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';

/**
 * W8 and W7, on a worksheet pair of their own (the reads of W3–W11 still see exactly W1's records):
 * 1,000 customers, each with a rollup counting its orders, a rollup summing their amounts and a
 * lookup of those amounts; orders relate to one customer each through a two-way relation.
 */
const CUSTOMERS = 1_000;
const ORDERS_PER_CUSTOMER = 20;
const BATCH = 1_000;
const W8_CONNECTIONS = 2;
const W7_CONNECTIONS = 16;
const PAGE_SIZE = 50;

export interface RelationSheets {
  customers: string;
  orders: string;
  field: { count: string; total: string; amounts: string; reverse: string };
  customerIds: string[];
}

interface Row {
  id: string;
  fields: Array<{ id: string; value: unknown }>;
}

const amountOf = (order: number): number => (order % 97) + 1;

async function createSheets(api: Api): Promise<RelationSheets> {
  const { worksheetId: customers } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Bench customers', fields: [{ name: 'Name', alias: 'name', type: 'Text', isTitle: true }] });
  const { worksheetId: orders } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
    name: 'Bench orders',
    fields: [
      { name: 'Order', alias: 'title', type: 'Text', isTitle: true },
      { name: 'Amount', alias: 'amount', type: 'Number' },
      { name: 'Customer', alias: 'customer', type: 'Relation', subType: 1, dataSource: customers, relation: { bidirectional: true } },
    ],
  });
  const reverse = (await api.call<{ fields: Array<{ id: string; type: string }> }>('GET', `/v3/app/worksheets/${customers}`)).fields.find((f) => f.type === '29')!.id;
  await api.call('POST', `/v3/app/worksheets/${customers}`, {
    addFields: [
      { name: 'Orders', alias: 'order_count', type: 'Rollup', config: { relationField: reverse, aggregation: 'COUNT' } },
      { name: 'Total', alias: 'total', type: 'Rollup', config: { relationField: reverse, sourceField: 'amount', aggregation: 'SUM' } },
      { name: 'Amounts', alias: 'amounts', type: 'Lookup', config: { relationField: reverse, sourceField: 'amount' } },
    ],
  });
  const fields = (await api.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${customers}`)).fields;
  const byAlias = (alias: string) => fields.find((f) => f.alias === alias)!.id;
  const made = await api.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${customers}/rows/batch`, {
    rows: Array.from({ length: CUSTOMERS }, (_, i) => ({ fields: [{ id: 'name', value: `Customer ${i + 1}` }] })),
  });
  return { customers, orders, field: { count: byAlias('order_count'), total: byAlias('total'), amounts: byAlias('amounts'), reverse }, customerIds: made.rowIds };
}

/** W8: batches of 1,000 orders, each related to one of 1,000 customers whose rollups count and sum them; then checks every rollup. */
export async function batchInsertRelated(ctx: BenchContext): Promise<{ result: WorkloadResult; sheets: RelationSheets }> {
  const sheets = await createSheets(ctx.api);
  const batches = (CUSTOMERS * ORDERS_PER_CUSTOMER) / BATCH;
  // Order n goes to customer n mod 1,000: every batch touches every customer once.
  const bodies = Array.from({ length: batches }, (_, batch) =>
    JSON.stringify({
      rows: Array.from({ length: BATCH }, (_, i) => {
        const n = batch * BATCH + i;
        return { fields: [{ id: 'title', value: `Order ${n}` }, { id: 'amount', value: amountOf(n) }, { id: 'customer', value: [sheets.customerIds[n % CUSTOMERS]] }] };
      }),
    }),
  );
  let created = 0;
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: W8_CONNECTIONS,
    amount: batches,
    timeoutSeconds: 120,
    request: (i) => ({ path: `/v3/app/worksheets/${sheets.orders}/rows/batch`, body: bodies[i] }),
    checkBody: (body) => {
      const ids = (JSON.parse(body) as { data?: { rowIds?: string[] } }).data?.rowIds?.length ?? 0;
      created += ids;
      return ids === BATCH;
    },
  });
  // A fast wrong answer fails: every customer must count its 20 orders and sum their amounts.
  let wrong = 0;
  for (let page = 1; page <= CUSTOMERS / 500; page++) {
    const listed = await ctx.api.call<{ rows: Row[] }>('POST', `/v3/app/worksheets/${sheets.customers}/rows/list`, { pageSize: 500, pageIndex: page, fields: [sheets.field.count, sheets.field.total] });
    for (const row of listed.rows) {
      const index = sheets.customerIds.indexOf(row.id);
      const expectedTotal = Array.from({ length: ORDERS_PER_CUSTOMER }, (_, k) => amountOf(index + k * CUSTOMERS)).reduce((a, b) => a + b, 0);
      const value = (id: string) => row.fields.find((f) => f.id === id)?.value;
      if (value(sheets.field.count) !== String(ORDERS_PER_CUSTOMER) || value(sheets.field.total) !== String(expectedTotal)) wrong++;
    }
  }
  if (wrong > 0) throw new Error(`W8: ${wrong} customers show a wrong order count or total after the batch inserts`);
  return {
    sheets,
    result: {
      id: 'W8',
      title: `batch insert ${(CUSTOMERS * ORDERS_PER_CUSTOMER) / 1000}k orders, each related (two-way) to one of ${CUSTOMERS} customers with 2 rollups and a lookup (${BATCH} per request, ${W8_CONNECTIONS} conns)`,
      metrics: [{ label: '', value: created / outcome.seconds, unit: 'records/s', bound: '>=', target: 10_000 }],
      failures: outcome.non2xx + outcome.errors + outcome.badBodies,
      cost: cpuCost(outcome.cpu, created, 'record'),
      details: { ...outcome, recordsCreated: created },
    },
  };
}

/**
 * W7: pages of 50 customers, each showing the lookup of its 20 orders' amounts and the two rollups
 * (`fields` names them, with the title). W7a shows every field, the relation itself too: 1,000
 * related orders with their titles per page (for information).
 */
export async function listWithRelated(ctx: BenchContext, sheets: RelationSheets, allFields: boolean): Promise<WorkloadResult> {
  const pages = CUSTOMERS / PAGE_SIZE;
  const fields = allFields ? undefined : ['name', sheets.field.amounts, sheets.field.count, sheets.field.total];
  const request = (pageIndex: number) => ({ pageSize: PAGE_SIZE, pageIndex, ...(fields ? { fields } : {}) });
  const first = await ctx.api.call<{ rows: Row[] }>('POST', `/v3/app/worksheets/${sheets.customers}/rows/list`, request(1));
  const shown = (row: Row, id: string) => row.fields.find((f) => f.id === id)?.value;
  const complete = first.rows.every(
    (row) =>
      (shown(row, sheets.field.amounts) as unknown[]).length === ORDERS_PER_CUSTOMER &&
      shown(row, sheets.field.count) === String(ORDERS_PER_CUSTOMER) &&
      (!allFields || (shown(row, sheets.field.reverse) as unknown[]).length === ORDERS_PER_CUSTOMER),
  );
  if (first.rows.length !== PAGE_SIZE || !complete) throw new Error('W7: the first page does not show 20 looked-up amounts and a count of 20 per customer');
  const bodies = Array.from({ length: pages }, (_, i) => JSON.stringify(request(i + 1)));
  const outcome = await runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: W7_CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path: `/v3/app/worksheets/${sheets.customers}/rows/list`, body: bodies[i % pages] }),
  });
  return {
    id: allFields ? 'W7a' : 'W7',
    title: allFields
      ? `W7 showing every field: the ${ORDERS_PER_CUSTOMER} related orders themselves too (${W7_CONNECTIONS} conns, ${ctx.settings.seconds} s)`
      : `list of ${PAGE_SIZE} customers, each showing a lookup and 2 rollups over its ${ORDERS_PER_CUSTOMER} related orders (${W7_CONNECTIONS} conns, ${ctx.settings.seconds} s)`,
    metrics: readMetrics(ctx, outcome, ctx.engine === 'SQLite' && !allFields ? { perSecond: 800 } : {}),
    failures: outcome.non2xx + outcome.errors,
    cost: cpuCost(outcome.cpu, outcome.ok + outcome.non2xx, 'request'),
    details: { ...outcome },
  };
}
