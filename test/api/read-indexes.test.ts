import { beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { indexExists } from '../helpers/catalog.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface IndexOut {
  name: string;
  fields: string[];
  include?: string[];
  unique: boolean;
}

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Code', alias: 'code', type: '2', isUnique: true },
  { name: 'Qty', alias: 'qty', type: '6' },
  { name: 'Price', alias: 'price', type: '6' },
  { name: 'Status', alias: 'status', type: '11', options: [{ value: 'A' }, { value: 'B' }] },
  { name: 'Notes', alias: 'notes', type: '2' },
];

async function indexesOf(ctx: ApiContext, sheet: Sheet): Promise<IndexOut[]> {
  await ctx.app.indexes.idle();
  const response = await ctx.call<{ indexes: IndexOut[] }>('GET', `/v3/app/worksheets/${sheet.id}`);
  expect(response.body.error_msg).toBe('');
  return response.body.data.indexes;
}

describeApi('indexes for what lists ask', (ctx) => {
  let sheet: Sheet;
  const rows = (filter: unknown, sorts?: unknown) => ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter, sorts });
  const cond = (field: string, operator: string, value: unknown) => ({ type: 'condition', field, operator, value });

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Indexed', FIELDS);
    await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, {
      rows: [1, 2, 3].map((n) => ({ fields: [{ id: 'title', value: `r${n}` }, { id: 'qty', value: n * 10 }, { id: 'price', value: n }, { id: 'status', value: n % 2 ? 'A' : 'B' }] })),
    });
  });

  it('lists the unique fields as indexes before any list asked for one', async () => {
    expect(await indexesOf(ctx, sheet)).toEqual([{ name: `ux_${sheet.id}_${sheet.field.code}`, fields: [sheet.field.code], unique: true }]);
  });

  it('a filtered, sorted list asks for (equality columns, sort column) carrying the range columns; its answer does not wait for it', async () => {
    const response = await rows({ type: 'group', logic: 'AND', children: [cond('qty', 'gt', 5), cond('status', 'in', ['A'])] }, [{ field: 'price', isAsc: false }]);
    expect(response.body).toMatchObject({ error_code: 1, data: { total: 2 } });
    const indexes = await indexesOf(ctx, sheet);
    // The list asks for two indexes (the sort's and the count's); built in the same millisecond, their order is by name.
    const composite = indexes.find((i) => i.fields.length === 2 && i.fields[1] === sheet.field.price);
    expect(composite).toEqual({ name: expect.any(String), fields: [sheet.field.status, sheet.field.price], include: [sheet.field.qty], unique: false });
    expect(await indexExists(ctx, composite!.name)).toBe(true);
  });

  it('a filtered list with its total also asks for (equality columns, range column), which lets the count read the index alone', async () => {
    const response = await rows({ type: 'group', logic: 'AND', children: [cond('qty', 'gt', 15), cond('status', 'in', ['A'])] }, [{ field: 'price', isAsc: false }]);
    expect(response.body).toMatchObject({ error_code: 1, data: { total: 1 } });
    const fields = (await indexesOf(ctx, sheet)).map((i) => i.fields);
    expect(fields).toContainEqual([sheet.field.status, sheet.field.qty]);
  });

  it('a filter without a sort asks for (equality columns, first range column); system fields by their names', async () => {
    await rows({ type: 'group', logic: 'AND', children: [cond('status', 'eq', 'B'), cond('_createdAt', 'ge', '2020-01-01')] });
    const fields = (await indexesOf(ctx, sheet)).map((i) => i.fields);
    expect(fields).toContainEqual([sheet.field.status, '_createdAt']);
  });

  it('asks nothing for text equality, OR groups or the record id', async () => {
    const before = await indexesOf(ctx, sheet);
    await rows({ type: 'group', logic: 'OR', children: [cond('qty', 'eq', 10), cond('price', 'eq', 2)] });
    await rows({ type: 'group', logic: 'AND', children: [cond('notes', 'eq', 'x'), cond('rowid', 'in', ['a'])] });
    expect(await indexesOf(ctx, sheet)).toEqual(before);
  });

  it('removing a field drops the indexes that cover it, with their entries', async () => {
    const composite = (await indexesOf(ctx, sheet)).find((i) => i.fields.includes(sheet.field.price))!;
    const changed = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/structure`, { removeFields: ['price'] });
    expect(changed.body.error_msg).toBe('');
    expect((await indexesOf(ctx, sheet)).some((i) => i.fields.includes(sheet.field.price))).toBe(false);
    expect(await indexExists(ctx, composite.name)).toBe(false);
  });

  it('removing a field an index only carries drops that index too', async () => {
    const other = await makeSheet(ctx, 'Carried', FIELDS);
    const listed = await ctx.call('POST', `/v3/app/worksheets/${other.id}/rows/list`, {
      filter: { type: 'group', logic: 'AND', children: [cond('qty', 'gt', 5), cond('status', 'eq', 'A')] },
      sorts: [{ field: 'price', isAsc: true }],
      includeTotalCount: false,
    });
    expect(listed.body.error_msg).toBe('');
    const covering = (await indexesOf(ctx, other)).find((i) => i.include?.includes(other.field.qty));
    expect(covering).toMatchObject({ fields: [other.field.status, other.field.price] });
    expect(await indexExists(ctx, covering!.name)).toBe(true);
    const changed = await ctx.call('POST', `/v3/app/worksheets/${other.id}/structure`, { removeFields: ['qty'] });
    expect(changed.body.error_msg).toBe('');
    expect((await indexesOf(ctx, other)).some((i) => i.name === covering!.name)).toBe(false);
    expect(await indexExists(ctx, covering!.name)).toBe(false);
  });
});

describeApi('indexes for what pivots ask', (ctx) => {
  const pivot = (sheet: Sheet, body: Record<string, unknown>) => ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/pivot`, body);
  const cond = (field: string, operator: string, value: unknown) => ({ type: 'condition', field, operator, value });
  const sumOfPrice = [{ field: 'price', aggregation: 'SUM' }, { field: 'record_count', aggregation: 'COUNT' }];
  const readIndexes = async (sheet: Sheet) => (await indexesOf(ctx, sheet)).filter((i) => !i.unique).map((i) => ({ fields: i.fields, include: i.include }));

  async function filledSheet(name: string): Promise<Sheet> {
    const sheet = await makeSheet(ctx, name, FIELDS);
    await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, {
      rows: [1, 2, 3].map((n) => ({ fields: [{ id: 'title', value: `r${n}` }, { id: 'qty', value: n * 10 }, { id: 'price', value: n }, { id: 'status', value: n % 2 ? 'A' : 'B' }] })),
    });
    return sheet;
  }

  it('a pivot asks for (grouped columns) carrying the summed ones, an index it can be read from alone; its answer does not wait for it', async () => {
    const sheet = await filledSheet('Pivoted');
    const response = await pivot(sheet, { rows: [{ field: 'status' }], values: sumOfPrice });
    expect(response.body).toMatchObject({ error_code: 1, data: { pivot: [{ rows: { [sheet.field.status]: 'A' }, values: { [sheet.field.price]: 4, record_count: 2 } }, { rows: { [sheet.field.status]: 'B' }, values: { [sheet.field.price]: 2, record_count: 1 } }] } });
    const indexes = await indexesOf(ctx, sheet);
    const carried = indexes.find((i) => !i.unique)!;
    expect(carried).toEqual({ name: expect.any(String), fields: [sheet.field.status], include: [sheet.field.price], unique: false });
    expect(await indexExists(ctx, carried.name)).toBe(true);
  });

  it('a filtered pivot puts the equality columns first and carries the range columns', async () => {
    const sheet = await filledSheet('Pivoted filtered');
    const filter = { type: 'group', logic: 'AND', children: [cond('title', 'eq', 'r1'), cond('qty', 'gt', 5)] };
    const byStatus = await pivot(sheet, { rows: [{ field: 'status' }], values: sumOfPrice, filter: { type: 'group', logic: 'AND', children: [cond('qty', 'gt', 5)] } });
    expect(byStatus.body.error_msg).toBe('');
    expect(await readIndexes(sheet)).toEqual([{ fields: [sheet.field.status], include: [sheet.field.qty, sheet.field.price] }]);
    // Text equality is no indexed condition (it folds case): a filter with one asks nothing more.
    expect((await pivot(sheet, { rows: [{ field: 'status' }], values: sumOfPrice, filter })).body.error_msg).toBe('');
    const onStatus = await pivot(sheet, { columns: [{ field: 'price' }], values: [{ field: 'record_count', aggregation: 'COUNT' }], filter: cond('status', 'eq', 'A') });
    expect(onStatus.body.error_msg).toBe('');
    expect(await readIndexes(sheet)).toEqual(
      expect.arrayContaining([
        { fields: [sheet.field.status], include: [sheet.field.qty, sheet.field.price] },
        { fields: [sheet.field.status, sheet.field.price], include: undefined },
      ]),
    );
    expect(await readIndexes(sheet)).toHaveLength(2);
  });

  it('asks nothing when the filter reads other columns (an OR group), or when an index the worksheet has already serves the pivot', async () => {
    const sheet = await filledSheet('Pivoted or');
    const either = { type: 'group', logic: 'OR', children: [cond('qty', 'eq', 10), cond('price', 'eq', 2)] };
    expect((await pivot(sheet, { rows: [{ field: 'status' }], values: sumOfPrice, filter: either })).body.error_msg).toBe('');
    expect(await readIndexes(sheet)).toEqual([]);
    // A sorted, filtered list gets (status, price) carrying qty: it holds everything a pivot by status of price needs.
    const listed = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, {
      filter: { type: 'group', logic: 'AND', children: [cond('qty', 'gt', 5), cond('status', 'eq', 'A')] },
      sorts: [{ field: 'price', isAsc: true }],
      includeTotalCount: false,
    });
    expect(listed.body.error_msg).toBe('');
    const before = await readIndexes(sheet);
    expect(before).toEqual([{ fields: [sheet.field.status, sheet.field.price], include: [sheet.field.qty] }]);
    expect((await pivot(sheet, { rows: [{ field: 'status' }], values: sumOfPrice })).body.error_msg).toBe('');
    expect(await readIndexes(sheet)).toEqual(before);
  });

  it('asks nothing when the columns are too many for one index to hold', async () => {
    const sheet = await filledSheet('Pivoted wide');
    const response = await pivot(sheet, {
      rows: [{ field: 'status' }, { field: 'title' }, { field: 'code' }, { field: 'notes' }, { field: 'qty' }],
      values: [{ field: 'price', aggregation: 'SUM' }],
    });
    expect(response.body.error_msg).toBe('');
    expect(await readIndexes(sheet)).toEqual([]);
  });
});
