import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/** Restoring records from the recycle bin: single and batch, with their relations, refusing unique clashes whole. */
describeApi('records: restore from the recycle bin', (ctx) => {
  let customers: Sheet;
  let orders: Sheet;
  const rows = (sheet: Sheet) => `/v3/app/worksheets/${sheet.id}/rows`;
  const total = async (sheet: Sheet) => (await ctx.call<{ total: number }>('POST', `${rows(sheet)}/list`, {})).body.data.total;

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Customers', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'Code', alias: 'code', type: '2', isUnique: true },
    ]);
    orders = await makeSheet(ctx, 'Orders', [
      { name: 'Order', alias: 'title', type: '2', isTitle: true },
      { name: 'Customer', alias: 'customer', type: '29', subType: 1, dataSource: customers.id },
    ]);
  });

  it('brings a deleted record back with its links, counted again in the total', async () => {
    const ada = (await ctx.call<{ id: string }>('POST', rows(customers), { fields: [{ id: 'title', value: 'Ada' }] })).body.data.id;
    const order = (await ctx.call<{ id: string }>('POST', rows(orders), { fields: [{ id: 'title', value: 'O-1' }, { id: 'customer', value: [ada] }] })).body.data.id;
    const shownCustomer = async () => valueOf((await ctx.call<WireRecord>('GET', `${rows(orders)}/${order}`)).body.data, orders.field.customer);
    expect((await ctx.call('DELETE', `${rows(customers)}/${ada}`)).body.error_msg).toBe('');
    expect(await shownCustomer()).toEqual([]);
    expect(await total(customers)).toBe(0);
    const restored = await ctx.call('POST', `${rows(customers)}/${ada}/restore`);
    expect(restored.body).toMatchObject({ success: true, error_code: 1, data: null });
    expect(await shownCustomer()).toEqual([{ sid: ada, name: 'Ada' }]);
    expect(await total(customers)).toBe(1);
    const again = await ctx.call('POST', `${rows(customers)}/${ada}/restore`);
    expect(again.body).toMatchObject({ error_code: 10007 });
    expect(again.body.error_msg).toContain('not in the recycle bin');
  });

  it('restores a batch, reporting ids that were not in the bin as failed', async () => {
    const made = await ctx.call<{ rowIds: string[] }>('POST', `${rows(customers)}/batch`, { rows: [{ fields: [{ id: 'title', value: 'Bo' }] }, { fields: [{ id: 'title', value: 'Cy' }] }] });
    const [bo, cy] = made.body.data.rowIds;
    expect((await ctx.call('DELETE', `${rows(customers)}/batch`, { rowIds: [bo, cy] })).body.error_msg).toBe('');
    const restored = await ctx.call('POST', `${rows(customers)}/batch/restore`, { rowIds: [bo, cy, 'nope'] });
    expect(restored.body.data).toEqual({ successfulRowIds: [bo, cy], failedRowIds: ['nope'] });
    expect(await total(customers)).toBe(3);
  });

  it('refuses, whole, a restore whose unique value a live record has taken (100005)', async () => {
    const first = (await ctx.call<{ id: string }>('POST', rows(customers), { fields: [{ id: 'title', value: 'Old' }, { id: 'code', value: 'K1' }] })).body.data.id;
    const other = (await ctx.call<{ id: string }>('POST', rows(customers), { fields: [{ id: 'title', value: 'Other' }] })).body.data.id;
    expect((await ctx.call('DELETE', `${rows(customers)}/batch`, { rowIds: [first, other] })).body.error_msg).toBe('');
    expect((await ctx.call('POST', rows(customers), { fields: [{ id: 'title', value: 'New' }, { id: 'code', value: 'K1' }] })).body.error_msg).toBe('');
    const refused = await ctx.call('POST', `${rows(customers)}/batch/restore`, { rowIds: [other, first] });
    expect(refused.body).toMatchObject({ success: false, error_code: 100005 });
    expect(refused.body.error_msg).toContain('"Code"');
    const stillDeleted = await ctx.call('GET', `${rows(customers)}/${other}`);
    expect(stillDeleted.body.error_code).toBe(10007);
  });
});
