import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface ChartData {
  name: string;
  reportType: number;
  xaxis: { controlId: string; name: string } | null;
  series: Array<{ controlId: string; name: string; normType: number }>;
  points: Array<{ x: unknown; values: Array<number | null> }>;
}

/** Every text of an SVG document, in document order. */
function textsOf(svg: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '#text') found.push(String(value));
        else walk(value);
      }
    }
  };
  walk(new XMLParser({ ignoreAttributes: true, preserveOrder: true }).parse(svg));
  return found;
}

/** Charts: saved with the public spec keys, computed through the pivot engine, drawn as SVG. */
describeApi('charts: create, read, data and SVG', (ctx) => {
  let sheet: Sheet;
  const charts = () => `/v3/app/worksheets/${sheet.id}/charts`;
  const svgOf = async (id: string) => ctx.app.inject({ method: 'GET', url: `/v3/app/charts/${id}/image.svg`, headers: ctx.auth });

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Sales', [
      { name: 'Item', alias: 'title', type: '2', isTitle: true },
      { name: 'Region', alias: 'region', type: '9', options: [{ value: 'North' }, { value: 'South' }] },
      { name: 'Amount', alias: 'amount', type: '6' },
    ]);
    const rows = [['a', 'North', 10], ['b', 'North', 5], ['c', 'South', 7]].map(([title, region, amount]) => ({ fields: [{ id: 'title', value: title }, { id: 'region', value: region }, { id: 'amount', value: amount }] }));
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.error_msg).toBe('');
  });

  it('saves a bar chart, reads it back with field ids, and computes its data (reflecting writes at once)', async () => {
    const made = await ctx.call<{ id: string }>('POST', charts(), { name: 'Amount by region', reportType: 1, xaxes: { controlId: 'region' }, yaxisList: [{ controlId: 'amount', normType: 1 }, { controlId: 'record_count' }] });
    expect(made.body.error_msg).toBe('');
    const id = made.body.data.id;
    const got = await ctx.call('GET', `/v3/app/charts/${id}`);
    expect(got.body.data).toMatchObject({ id, worksheetId: sheet.id, name: 'Amount by region', reportType: 1, xaxes: { controlId: sheet.field.region }, yaxisList: [{ controlId: sheet.field.amount, normType: 1, controlName: 'Amount' }, { controlId: 'record_count', normType: 5 }] });
    const data = async () => (await ctx.call<ChartData>('GET', `/v3/app/charts/${id}/data`)).body.data;
    const first = await data();
    expect(first.xaxis).toEqual({ controlId: sheet.field.region, name: 'Region' });
    expect(first.points).toEqual([{ x: 'North', values: [15, 2] }, { x: 'South', values: [7, 1] }]);
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'd' }, { id: 'region', value: 'South' }, { id: 'amount', value: 3 }] })).body.error_msg).toBe('');
    expect((await data()).points).toEqual([{ x: 'North', values: [15, 2] }, { x: 'South', values: [10, 2] }]);
  });

  it('draws a bar chart and a pie chart as well-formed SVG with the group labels and the title', async () => {
    for (const reportType of [1, 3]) {
      const made = await ctx.call<{ id: string }>('POST', charts(), { name: `Chart ${reportType}`, reportType, xaxes: [{ controlId: 'region' }], yaxisList: [{ controlId: 'amount', normType: 1 }] });
      expect(made.body.error_msg).toBe('');
      const svg = await svgOf(made.body.data.id);
      expect(svg.statusCode).toBe(200);
      expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(XMLValidator.validate(svg.payload)).toBe(true);
      const texts = textsOf(svg.payload);
      expect(texts).toContain(`Chart ${reportType}`);
      expect(texts).toEqual(expect.arrayContaining(['North', 'South']));
    }
  });

  it('refuses unknown types, fields and aggregations the field cannot take, naming the key', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'x', reportType: 4, xaxes: { controlId: 'region' }, yaxisList: [{ controlId: 'amount' }] }, 10002, 'reportType'],
      [{ name: 'x', reportType: 1, xaxes: { controlId: 'nope' }, yaxisList: [{ controlId: 'amount' }] }, 10002, 'xaxes.controlId'],
      [{ name: 'x', reportType: 1, xaxes: { controlId: 'region' }, yaxisList: [{ controlId: 'ghost' }] }, 10002, 'yaxisList[0].controlId'],
      [{ name: 'x', reportType: 1, xaxes: { controlId: 'region' }, yaxisList: [{ controlId: 'title', normType: 1 }] }, 10002, 'yaxisList[0]'],
      [{ name: 'x', reportType: 1, yaxisList: [{ controlId: 'amount' }] }, 10001, 'xaxes'],
      [{ name: 'x', reportType: 1, xaxes: { controlId: 'region' }, yaxisList: [{ controlId: 'amount' }], filter: { type: 'condition', field: 'nope', operator: 'eq', value: 1 } }, 10002, 'nope'],
      [{ name: 'x', reportType: 1, xaxes: { controlId: 'region' }, yaxisList: [{ controlId: 'amount' }], pageId: 'no-page' }, 10002, 'pageId'],
    ];
    for (const [body, code, named] of cases) {
      const refused = await ctx.call('POST', charts(), body);
      expect(refused.body.error_code).toBe(code);
      expect(refused.body.error_msg).toContain(named);
    }
  });

  it('counts the records of a view when given one, and refuses an unknown view (10007)', async () => {
    const views = await ctx.call<{ views: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/views/batch`, { views: [{ name: 'South only', viewType: 'table', filter: { type: 'condition', field: 'region', operator: 'eq', value: 'South' } }] });
    expect(views.body.error_msg).toBe('');
    const viewId = views.body.data.views[0].id;
    const made = await ctx.call<{ id: string }>('POST', charts(), { name: 'South', reportType: 10, yaxisList: [{ controlId: 'record_count' }], viewId });
    expect(made.body.error_msg).toBe('');
    const data = await ctx.call<ChartData>('GET', `/v3/app/charts/${made.body.data.id}/data`);
    const south = (await ctx.call<{ total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { viewId })).body.data.total;
    expect(data.body.data.points).toEqual([{ x: null, values: [south] }]);
    const unknown = await ctx.call('POST', charts(), { name: 'x', reportType: 10, yaxisList: [{ controlId: 'record_count' }], viewId: 'nope' });
    expect(unknown.body.error_code).toBe(10007);
  });

  it('shows a number chart without an x axis, applies the filter, and deletes', async () => {
    const made = await ctx.call<{ id: string }>('POST', charts(), { name: 'North total', reportType: 10, yaxisList: [{ controlId: 'amount', normType: 1 }], filter: { type: 'condition', field: 'region', operator: 'eq', value: 'North' } });
    expect(made.body.error_msg).toBe('');
    const data = await ctx.call<ChartData>('GET', `/v3/app/charts/${made.body.data.id}/data`);
    expect(data.body.data.points).toEqual([{ x: null, values: [15] }]);
    expect(XMLValidator.validate((await svgOf(made.body.data.id)).payload)).toBe(true);
    expect((await ctx.call('DELETE', `/v3/app/charts/${made.body.data.id}`)).body.error_msg).toBe('');
    expect((await ctx.call('GET', `/v3/app/charts/${made.body.data.id}`)).body.error_code).toBe(10007);
    expect((await ctx.call('GET', `/v3/app/charts/${made.body.data.id}/data`)).body.error_code).toBe(10007);
    expect((await ctx.call('DELETE', `/v3/app/charts/${made.body.data.id}`)).body.error_code).toBe(10007);
  });
});
