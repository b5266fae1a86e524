import { beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord as create, makeSheet, readRecord as read, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Relations (29): definition (one-way, two-way with its reverse field, self relations), writes
 * (replace, add, remove, the V2 form), reads as [{sid, name}], both sides agreeing, filters, the
 * relations endpoint, deletions, and the structure changes that add or remove a side.
 */

interface FieldOut {
  id: string;
  name: string;
  alias: string;
  type: string;
  dataSource?: string;
  relation?: { bidirectional: boolean; reverseField?: string; showFields: string[] };
  config: Record<string, unknown>;
}

async function fieldsOf(ctx: ApiContext, worksheetId: string): Promise<FieldOut[]> {
  const got = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`);
  expect(got.body.error_msg).toBe('');
  return got.body.data.fields;
}

async function patch(ctx: ApiContext, sheet: Sheet, id: string, fields: unknown[]) {
  return ctx.call<{ id: string }>('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields });
}

async function titlesFiltered(ctx: ApiContext, sheet: Sheet, filter: unknown): Promise<string[]> {
  const listed = await ctx.call<{ rows: WireRecord[]; total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter, sorts: [{ field: 'title', isAsc: true }] });
  expect(listed.body.error_msg).toBe('');
  return listed.body.data.rows.map((row) => String(valueOf(row, sheet.field.title)));
}

describeApi('relations: two-way links between orders and customers', (ctx) => {
  let customers: Sheet;
  let orders: Sheet;
  let reverseId: string;
  const customer: Record<string, string> = {};

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Customers', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'City', alias: 'city', type: '2' },
    ]);
    orders = await makeSheet(ctx, 'Orders', [
      { name: 'Order', alias: 'title', type: '2', isTitle: true },
      { name: 'Customer', alias: 'customer', type: 'Relation', subType: 1, dataSource: customers.id, relation: { bidirectional: true } },
    ]);
    for (const name of ['Ada', 'Bo', 'Cy']) customer[name] = await create(ctx, customers, [{ id: 'title', value: name }]);
    reverseId = (await fieldsOf(ctx, customers.id)).find((f) => f.type === '29')!.id;
  });

  it('creates the reverse field on the related worksheet, named after where it comes from', async () => {
    const orderFields = await fieldsOf(ctx, orders.id);
    const forward = orderFields.find((f) => f.alias === 'customer')!;
    expect(forward).toMatchObject({ type: '29', dataSource: customers.id, relation: { bidirectional: true, reverseField: reverseId, showFields: [] } });
    const reverse = (await fieldsOf(ctx, customers.id)).find((f) => f.id === reverseId)!;
    expect(reverse).toMatchObject({ name: 'Orders', type: '29', dataSource: orders.id, relation: { bidirectional: true, reverseField: forward.id } });
    expect(reverse.config.subType).toBe(2);
  });

  it('writes a relation as record ids and reads it as [{sid, name}] on both sides', async () => {
    const order = await create(ctx, orders, [
      { id: 'title', value: 'O-1' },
      { id: 'customer', value: [customer.Ada] },
    ]);
    expect(valueOf(await read(ctx, orders, order), orders.field.customer)).toEqual([{ sid: customer.Ada, name: 'Ada' }]);
    expect(valueOf(await read(ctx, customers, customer.Ada), reverseId)).toEqual([{ sid: order, name: 'O-1' }]);
  });

  it('moves an order to another customer: the old one loses it, the new one shows it', async () => {
    const order = await create(ctx, orders, [
      { id: 'title', value: 'O-2' },
      { id: 'customer', value: [{ sid: customer.Bo }] },
    ]);
    const moved = await patch(ctx, orders, order, [{ id: 'customer', value: [customer.Cy] }]);
    expect(moved.body.error_msg).toBe('');
    expect(valueOf(await read(ctx, orders, order), orders.field.customer)).toEqual([{ sid: customer.Cy, name: 'Cy' }]);
    expect(valueOf(await read(ctx, customers, customer.Bo), reverseId)).toEqual([]);
    expect(valueOf(await read(ctx, customers, customer.Cy), reverseId)).toEqual([{ sid: order, name: 'O-2' }]);
  });

  it('writes from the reverse side take an order from its previous customer (the order holds one)', async () => {
    const order = await create(ctx, orders, [
      { id: 'title', value: 'O-3' },
      { id: 'customer', value: [customer.Ada] },
    ]);
    const taken = await patch(ctx, customers, customer.Bo, [{ id: reverseId, value: [order], type: 1 }]);
    expect(taken.body.error_msg).toBe('');
    expect(valueOf(await read(ctx, orders, order), orders.field.customer)).toEqual([{ sid: customer.Bo, name: 'Bo' }]);
    const adaOrders = valueOf(await read(ctx, customers, customer.Ada), reverseId) as Array<{ name: string }>;
    expect(adaOrders.map((o) => o.name)).toEqual(['O-1']);
  });

  it('adds and removes with the item type and with the V2 {rowIds, isAdd} form', async () => {
    const ids = [await create(ctx, orders, [{ id: 'title', value: 'O-4' }]), await create(ctx, orders, [{ id: 'title', value: 'O-5' }])];
    const cy = () => read(ctx, customers, customer.Cy).then((r) => (valueOf(r, reverseId) as Array<{ name: string }>).map((o) => o.name));
    expect((await patch(ctx, customers, customer.Cy, [{ id: reverseId, value: { rowIds: ids, isAdd: true } }])).body.error_msg).toBe('');
    expect(await cy()).toEqual(['O-2', 'O-4', 'O-5']);
    expect((await patch(ctx, customers, customer.Cy, [{ id: reverseId, value: [ids[0]], type: 2 }])).body.error_msg).toBe('');
    expect(await cy()).toEqual(['O-2', 'O-5']);
    expect((await patch(ctx, customers, customer.Cy, [{ id: reverseId, value: { rowIds: [ids[1]], isAdd: false } }])).body.error_msg).toBe('');
    expect(await cy()).toEqual(['O-2']);
  });

  it('refuses record ids that do not exist, with 10002 naming them, and writes nothing', async () => {
    const refused = await ctx.call('POST', `/v3/app/worksheets/${orders.id}/rows/batch`, {
      rows: [
        { fields: [{ id: 'title', value: 'bad-1' }, { id: 'customer', value: [customer.Ada] }] },
        { fields: [{ id: 'title', value: 'bad-2' }, { id: 'customer', value: ['no-such-customer'] }] },
      ],
    });
    expect(refused.body).toMatchObject({ success: false, error_code: 10002 });
    expect(refused.body.error_msg).toContain('"Customer"');
    expect(refused.body.error_msg).toContain('no-such-customer');
    expect(await titlesFiltered(ctx, orders, { type: 'condition', field: 'title', operator: 'startswith', value: 'bad' })).toEqual([]);
  });

  it('refuses two records on a one-record relation', async () => {
    const refused = await ctx.call('POST', `/v3/app/worksheets/${orders.id}/rows`, { fields: [{ id: 'title', value: 'two' }, { id: 'customer', value: [customer.Ada, customer.Bo] }] });
    expect(refused.body).toMatchObject({ error_code: 10002 });
    expect(refused.body.error_msg).toContain('relates to one record');
  });

  it('filters by related record ids with eq, ne, in, notin, concurrent, isempty, isnotempty', async () => {
    const condition = (operator: string, value?: unknown) => ({ type: 'condition', field: 'customer', operator, value });
    expect(await titlesFiltered(ctx, orders, condition('eq', customer.Ada))).toEqual(['O-1']);
    expect(await titlesFiltered(ctx, orders, condition('in', [customer.Bo, customer.Cy]))).toEqual(['O-2', 'O-3']);
    expect(await titlesFiltered(ctx, orders, condition('ne', customer.Ada))).toEqual(['O-2', 'O-3', 'O-4', 'O-5']);
    expect(await titlesFiltered(ctx, orders, condition('notin', [{ sid: customer.Ada }, { sid: customer.Bo }]))).toEqual(['O-2', 'O-4', 'O-5']);
    expect(await titlesFiltered(ctx, orders, condition('isempty'))).toEqual(['O-4', 'O-5']);
    expect(await titlesFiltered(ctx, orders, condition('isnotempty'))).toEqual(['O-1', 'O-2', 'O-3']);
    const reverse = (operator: string, value?: unknown) => ({ type: 'condition', field: reverseId, operator, value });
    const orderIds = (await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { sorts: [{ field: 'title', isAsc: true }] })).body.data.rows.map((r) => r.id);
    expect(await titlesFiltered(ctx, customers, reverse('concurrent', [orderIds[0]]))).toEqual(['Ada']);
    expect(await titlesFiltered(ctx, customers, reverse('isempty'))).toEqual([]);
    const refused = await ctx.call('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: condition('contains', 'x') });
    expect(refused.body).toMatchObject({ error_code: 10002 });
    expect(refused.body.error_msg).toContain('operator contains is not allowed on Relation');
  });

  it('lists the related records of a record, either side, a page at a time in the list row shape', async () => {
    const order = await create(ctx, orders, [{ id: 'title', value: 'O-7' }]);
    const url = (rowId: string, field: string, query = '') => `/v3/app/worksheets/${customers.id}/rows/${rowId}/relations/${field}${query}`;
    type Page = { rows: Array<Record<string, unknown>>; total: number; pageIndex: number; pageSize: number };
    expect((await patch(ctx, customers, customer.Bo, [{ id: reverseId, value: [order], type: 1 }])).body.error_msg).toBe('');
    const first = await ctx.call<Page>('GET', url(customer.Bo, reverseId, '?pageSize=1&pageIndex=1'));
    expect(first.body.error_msg).toBe('');
    expect(first.body.data).toMatchObject({ total: 2, pageIndex: 1, pageSize: 1 });
    const [row] = first.body.data.rows as unknown as WireRecord[];
    expect(valueOf(row, orders.field.title)).toBe('O-3');
    expect(valueOf(row, orders.field.customer)).toEqual([{ sid: customer.Bo, name: 'Bo' }]);
    const second = await ctx.call<Page>('GET', url(customer.Bo, reverseId, '?pageSize=1&pageIndex=2'));
    expect((second.body.data.rows as unknown as WireRecord[]).map((r) => valueOf(r, orders.field.title))).toEqual(['O-7']);
    const flat = await ctx.call<Page>('GET', `/v3/app/worksheets/${orders.id}/rows/${order}/relations/customer?isReturnSystemFields=true&useFieldIdAsKey=false`);
    expect(flat.body.data.total).toBe(1);
    expect(flat.body.data.rows[0]).toMatchObject({ id: customer.Bo, rowId: customer.Bo, title: 'Bo', _createdBy: { accountId: 'user-api' } });
    expect(flat.body.data.pageSize).toBe(20);
    const notRelation = await ctx.call('GET', url(customer.Bo, 'city'));
    expect(notRelation.body).toMatchObject({ error_code: 10002 });
    expect(notRelation.body.error_msg).toContain('"City" is a Text field, not a relation');
    const noRecord = await ctx.call('GET', url('no-such-row', reverseId));
    expect(noRecord.body).toMatchObject({ error_code: 10007 });
  });

  it('hides links to records in the recycle bin and shows them again after... a permanent delete removes them', async () => {
    const order = await create(ctx, orders, [
      { id: 'title', value: 'O-6' },
      { id: 'customer', value: [customer.Ada] },
    ]);
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${orders.id}/rows/${order}`)).body.error_msg).toBe('');
    const adaOrders = () => read(ctx, customers, customer.Ada).then((r) => (valueOf(r, reverseId) as Array<{ name: string }>).map((o) => o.name));
    expect(await adaOrders()).toEqual(['O-1']);
    expect(await titlesFiltered(ctx, customers, { type: 'condition', field: reverseId, operator: 'eq', value: order })).toEqual([]);
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${orders.id}/rows/${order}`, { permanent: true })).body.error_msg).toBe('');
    const links = await ctx.database.db
      .selectFrom(`lk_${orders.field.customer}` as never)
      .select('source_id' as never)
      .where('source_id' as never, '=', order as never)
      .execute();
    expect(links).toEqual([]);
  });
});

describeApi('relations: self relations, one-way relations and structure changes', (ctx) => {
  it('relates a worksheet to itself, two-way, with the reverse field beside the forward one', async () => {
    const people = await makeSheet(ctx, 'People', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'Manager', alias: 'manager', type: '29', dataSource: 'selfRelation', subType: 1, config: { bidirectional: true } },
    ]);
    const fields = await fieldsOf(ctx, people.id);
    const reverse = fields.find((f) => f.type === '29' && f.alias !== 'manager')!;
    expect(reverse.name).toBe('People');
    const boss = await create(ctx, people, [{ id: 'title', value: 'Boss' }]);
    const worker = await create(ctx, people, [
      { id: 'title', value: 'Worker' },
      { id: 'manager', value: [boss] },
    ]);
    expect(valueOf(await read(ctx, people, boss), reverse.id)).toEqual([{ sid: worker, name: 'Worker' }]);
    expect(valueOf(await read(ctx, people, worker), people.field.manager)).toEqual([{ sid: boss, name: 'Boss' }]);
  });

  it('keeps a one-way relation on its own worksheet only, finds dataSource by alias, and refuses an unknown one', async () => {
    const tags = await makeSheet(ctx, 'Tags', [{ name: 'Tag', alias: 'title', type: '2', isTitle: true }]);
    expect((await ctx.call('POST', `/v3/app/worksheets/${tags.id}`, { alias: 'tag_sheet' })).body.error_msg).toBe('');
    const notes = await makeSheet(ctx, 'Notes', [
      { name: 'Note', alias: 'title', type: '2', isTitle: true },
      { name: 'Tags', alias: 'tags', type: '29', dataSource: 'tag_sheet' },
    ]);
    expect((await fieldsOf(ctx, notes.id)).find((f) => f.alias === 'tags')!.dataSource).toBe(tags.id);
    expect((await fieldsOf(ctx, tags.id)).map((f) => f.type)).toEqual(['2']);
    const tag = await create(ctx, tags, [{ id: 'title', value: 'red' }]);
    const note = await create(ctx, notes, [
      { id: 'title', value: 'n1' },
      { id: 'tags', value: [tag] },
    ]);
    expect(valueOf(await read(ctx, notes, note), notes.field.tags)).toEqual([{ sid: tag, name: 'red' }]);
    const refused = await ctx.call('POST', `/v3/app/worksheets/${notes.id}`, { addFields: [{ name: 'Bad', type: '29', dataSource: 'nowhere' }] });
    expect(refused.body).toMatchObject({ error_code: 10002 });
    expect(refused.body.error_msg).toContain('dataSource: no worksheet "nowhere"');
  });

  it('removing the forward field removes its reverse; removing the reverse leaves the forward one-way', async () => {
    const a = await makeSheet(ctx, 'Alpha', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
    const b = await makeSheet(ctx, 'Beta', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'Alpha link', alias: 'alpha', type: '29', dataSource: a.id, relation: { bidirectional: true } },
      { name: 'Alpha two', alias: 'alpha2', type: '29', dataSource: a.id, relation: { bidirectional: true } },
    ]);
    const reverses = (await fieldsOf(ctx, a.id)).filter((f) => f.type === '29');
    expect(reverses.map((f) => f.name)).toEqual(['Beta', 'Beta (Alpha two)']);
    expect((await ctx.call('POST', `/v3/app/worksheets/${b.id}`, { removeFields: ['alpha'] })).body.error_msg).toBe('');
    expect((await fieldsOf(ctx, a.id)).filter((f) => f.type === '29').map((f) => f.name)).toEqual(['Beta (Alpha two)']);
    expect((await ctx.call('POST', `/v3/app/worksheets/${a.id}`, { removeFields: [reverses[1].id] })).body.error_msg).toBe('');
    const forward = (await fieldsOf(ctx, b.id)).find((f) => f.alias === 'alpha2')!;
    expect(forward.relation).toEqual({ bidirectional: false, showFields: [] });
  });
});

describeApi('cascading selects: one record of a hierarchical worksheet', (ctx) => {
  it('stores the chosen record, reads it with its title, checks it exists, and filters by it', async () => {
    const places = await makeSheet(ctx, 'Places', [
      { name: 'Place', alias: 'title', type: '2', isTitle: true },
      { name: 'Parent', alias: 'parent', type: '29', subType: 1, dataSource: 'selfRelation' },
    ]);
    const europe = await create(ctx, places, [{ id: 'title', value: 'Europe' }]);
    const paris = await create(ctx, places, [{ id: 'title', value: 'Paris' }, { id: 'parent', value: [europe] }]);
    const shops = await makeSheet(ctx, 'Shops', [
      { name: 'Shop', alias: 'title', type: '2', isTitle: true },
      { name: 'Where', alias: 'where', type: 'CascadingSelect', dataSource: places.id },
    ]);
    const shop = await create(ctx, shops, [{ id: 'title', value: 'S1' }, { id: 'where', value: paris }]);
    await create(ctx, shops, [{ id: 'title', value: 'S2' }]);
    expect(valueOf(await read(ctx, shops, shop), shops.field.where)).toEqual([{ sid: paris, name: 'Paris' }]);
    const unknown = await ctx.call('POST', `/v3/app/worksheets/${shops.id}/rows`, { fields: [{ id: 'title', value: 'S3' }, { id: 'where', value: ['nowhere'] }] });
    expect(unknown.body).toMatchObject({ error_code: 10002 });
    expect(unknown.body.error_msg).toContain('field "Where": no record "nowhere"');
    expect(await titlesFiltered(ctx, shops, { type: 'condition', field: 'where', operator: 'eq', value: paris })).toEqual(['S1']);
    expect(await titlesFiltered(ctx, shops, { type: 'condition', field: 'where', operator: 'isempty' })).toEqual(['S2']);
    const missing = await ctx.call('POST', `/v3/app/worksheets/${shops.id}`, { addFields: [{ name: 'Bad', type: '35' }] });
    expect(missing.body).toMatchObject({ error_code: 10001 });
    expect(missing.body.error_msg).toContain('dataSource is required');
  });
});
