import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Rollups stay right when writes run at once: two batches linking the same records (on PostgreSQL
 * their transactions overlap) must both be counted. Without the records locked before their values
 * are recomputed, each batch counted the other's links as absent and the later write won.
 */
describeApi('computed fields: concurrent writes to the same related records', (ctx) => {
  let customers: Sheet;
  let orders: Sheet;
  let customerIds: string[];
  let countField: string;

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Customers', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
    orders = await makeSheet(ctx, 'Orders', [
      { name: 'Order', alias: 'title', type: '2', isTitle: true },
      { name: 'Customer', alias: 'customer', type: 'Relation', subType: 1, dataSource: customers.id, relation: { bidirectional: true } },
    ]);
    const schema = await ctx.call<{ fields: Array<{ id: string; type: string }> }>('GET', `/v3/app/worksheets/${customers.id}`);
    const reverse = schema.body.data.fields.find((f) => f.type === '29')!.id;
    const added = await ctx.call('POST', `/v3/app/worksheets/${customers.id}`, { addFields: [{ name: 'Order count', alias: 'count', type: 'Rollup', config: { relationField: reverse, aggregation: 'count' } }] });
    expect(added.body.error_msg).toBe('');
    countField = (await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${customers.id}`)).body.data.fields.find((f) => f.alias === 'count')!.id;
    const made = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${customers.id}/rows/batch`, { rows: Array.from({ length: 200 }, (_, i) => ({ fields: [{ id: 'title', value: `c${i}` }] })) });
    customerIds = made.body.data.rowIds;
  });

  it('counts every order of two batches written at once, round after round', async () => {
    const batch = (round: number, side: number) =>
      ctx.call('POST', `/v3/app/worksheets/${orders.id}/rows/batch`, { rows: customerIds.map((id, i) => ({ fields: [{ id: 'title', value: `o${round}-${side}-${i}` }, { id: 'customer', value: [id] }] })) });
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all([batch(round, 0), batch(round, 1)]);
      expect(results.map((r) => r.body.error_msg)).toEqual(['', '']);
    }
    const listed = await ctx.call<{ rows: Array<Record<string, unknown>> }>('POST', `/v3/app/worksheets/${customers.id}/rows/list`, { pageSize: 500, useFieldIdAsKey: true });
    const counts = listed.body.data.rows.map((row) => String(row[countField]));
    expect(counts).toHaveLength(200);
    expect(counts.filter((count) => count !== '20')).toEqual([]);
  });
});
