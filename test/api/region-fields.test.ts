import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type PivotData, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Region fields (19 province, 23 down to the city, 24 down to the county) against the `regions`
 * table: a written code must name a region the field takes (10002 naming the field and the code),
 * and values read as `{code, name, path}` with the names resolved for the page.
 */
const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Province', alias: 'province', type: '19' },
  { name: 'City', alias: 'city', type: '23' },
  { name: 'County', alias: 'county', type: '24' },
];

const NANSHAN = { code: '440305', name: '南山区', path: '广东省/深圳市/南山区' };
const SHENZHEN = { code: '440300', name: '深圳市', path: '广东省/深圳市' };
const GUANGDONG = { code: '440000', name: '广东省', path: '广东省' };

describeApi('region fields', (ctx) => {
  let sheet: Sheet;
  const create = (fields: Record<string, unknown>) => ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: Object.entries(fields).map(([id, value]) => ({ id, value })) });
  const refused = async (fields: Record<string, unknown>) => {
    const response = await create(fields);
    expect(response.body).toMatchObject({ success: false, error_code: 10002 });
    return response.body.error_msg;
  };
  const titles = async (field: string, operator: string, value: unknown) => {
    const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field, operator, value }] };
    const response = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter, sorts: [{ field: 'title', isAsc: true }] });
    expect(response.body.error_msg).toBe('');
    return response.body.data.rows.map((row) => valueOf(row, sheet.field.title));
  };

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Places', FIELDS);
  });

  it('reads a region as {code, name, path}, at every level the field takes', async () => {
    const id = await createRecord(ctx, sheet, [
      { id: 'title', value: 'Shenzhen office' },
      { id: 'province', value: 440000 },
      { id: 'city', value: '440300' },
      { id: 'county', value: '440305' },
    ]);
    const record = await readRecord(ctx, sheet, id);
    expect(valueOf(record, sheet.field.province)).toEqual(GUANGDONG);
    expect(valueOf(record, sheet.field.city)).toEqual(SHENZHEN);
    expect(valueOf(record, sheet.field.county)).toEqual(NANSHAN);
    // A field takes a region above its deepest level too, and 海外 and its countries.
    const higher = await createRecord(ctx, sheet, [
      { id: 'title', value: 'Abroad' },
      { id: 'province', value: '910000' },
      { id: 'city', value: '910276' },
      { id: 'county', value: '440000' },
    ]);
    const abroad = await readRecord(ctx, sheet, higher);
    expect(valueOf(abroad, sheet.field.province)).toEqual({ code: '910000', name: '海外', path: '海外' });
    expect(valueOf(abroad, sheet.field.city)).toEqual({ code: '910276', name: '德国', path: '海外/德国' });
    expect(valueOf(abroad, sheet.field.county)).toEqual(GUANGDONG);
  });

  it('refuses a code that names no region, naming the field and the code', async () => {
    expect(await refused({ title: 'x', county: '440399' })).toBe('fields[1] "County": no region with code "440399"');
    expect(await refused({ title: 'x', city: '310100' })).toBe('fields[1] "City": no region with code "310100"');
  });

  it('refuses a region deeper than the field takes', async () => {
    expect(await refused({ title: 'x', province: '440300' })).toBe('fields[1] "Province": region "440300" (广东省/深圳市) is at level 2; this field takes a province (level 1)');
    expect(await refused({ title: 'x', province: '910840' })).toContain('region "910840" (海外/美国) is at level 2');
    expect(await refused({ title: 'x', city: '440305' })).toBe('fields[1] "City": region "440305" (广东省/深圳市/南山区) is at level 3; this field takes a province or city (levels 1–2)');
    // The same code in a field that takes it and in one that does not: the stricter field is named.
    expect(await refused({ title: 'x', county: '440305', city: '440305' })).toContain('fields[2] "City"');
  });

  it('checks updates and batches the same way, and writes nothing of a refused batch', async () => {
    const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'Moved' }]);
    const update = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields: [{ id: 'province', value: '440100' }] });
    expect(update.body).toMatchObject({ success: false, error_code: 10002 });
    expect(update.body.error_msg).toContain('"Province"');
    const batch = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, {
      rows: [{ fields: [{ id: 'title', value: 'Batch ok' }, { id: 'county', value: '110101' }] }, { fields: [{ id: 'title', value: 'Batch bad' }, { id: 'county', value: '000000' }] }],
    });
    expect(batch.body).toMatchObject({ success: false, error_code: 10002 });
    expect(batch.body.error_msg).toContain('no region with code "000000"');
    expect(await titles('title', 'startswith', 'Batch')).toEqual([]);
    const ok = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields: [{ id: 'county', value: '110101' }] });
    expect(ok.body.error_msg).toBe('');
    expect(valueOf(await readRecord(ctx, sheet, id), sheet.field.county)).toEqual({ code: '110101', name: '东城区', path: '北京市/东城区' });
  });

  it('reads empty region values as null, and names every region of a page', async () => {
    await createRecord(ctx, sheet, [{ id: 'title', value: 'Nowhere' }]);
    const list = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { sorts: [{ field: 'title', isAsc: true }] });
    const byTitle = new Map(list.body.data.rows.map((row) => [valueOf(row, sheet.field.title), row]));
    expect(valueOf(byTitle.get('Nowhere')!, sheet.field.county)).toBeNull();
    expect(valueOf(byTitle.get('Shenzhen office')!, sheet.field.county)).toEqual(NANSHAN);
    expect(valueOf(byTitle.get('Moved')!, sheet.field.county)).toEqual({ code: '110101', name: '东城区', path: '北京市/东城区' });
  });

  it('filters by code and by what lies within a region, countries included', async () => {
    expect(await titles('county', 'eq', '440305')).toEqual(['Shenzhen office']);
    expect(await titles('county', 'belongsto', '440000')).toEqual(['Abroad', 'Shenzhen office']);
    expect(await titles('city', 'belongsto', '910000')).toEqual(['Abroad']);
    expect(await titles('city', 'belongsto', '910276')).toEqual(['Abroad']);
    // 910200 is no region: nothing lies within it, though 910276 starts with its digits.
    expect(await titles('city', 'belongsto', '910200')).toEqual([]);
  });

  it('shows a region by its path in a markdown page', async () => {
    const filter = { type: 'condition', field: 'title', operator: 'eq', value: 'Shenzhen office' };
    const page = await ctx.call<{ rows: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter, responseFormat: 'md', fields: ['title', 'city', 'county'] });
    expect(page.body.error_msg).toBe('');
    expect(page.body.data.rows.split('\n')[1]).toMatch(/｜Shenzhen office｜广东省\/深圳市｜广东省\/深圳市\/南山区$/);
  });

  it('groups a pivot by region, named by path', async () => {
    const response = await ctx.call<PivotData>('POST', `/v3/app/worksheets/${sheet.id}/rows/pivot`, { rows: [{ field: 'county' }], values: [{ field: 'record_count' }], includeEmpty: false });
    expect(response.body.error_msg).toBe('');
    const groups = response.body.data.pivot.map((g) => Object.values(g.rows)[0]);
    expect(groups).toEqual(expect.arrayContaining(['广东省/深圳市/南山区', '北京市/东城区', '广东省']));
  });

  it('refuses a region field in a concatenation (its text needs the names)', async () => {
    const response = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/structure`, { addFields: [{ name: 'Label', type: '32', config: { expression: '$title$ $county$' } }] });
    expect(response.body.success).toBe(false);
    expect(response.body.error_msg).toContain('a Region field cannot be joined into text');
  });
});

describeApi(
  'region fields under the public wire profile',
  (ctx) => {
    it('read as {code, name, path} in flat rows', async () => {
      const sheet = await makeSheet(ctx, 'Places', FIELDS);
      const id = await createRecord(ctx, sheet, [
        { id: 'title', value: 'Shenzhen office' },
        { id: 'county', value: '440305' },
      ]);
      const got = await ctx.call<Record<string, unknown>>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
      expect(got.body.data).toMatchObject({ county: NANSHAN, province: null });
    });
  },
  { API_PROFILE: 'public' },
);
