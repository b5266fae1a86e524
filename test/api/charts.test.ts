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

/** An element of the SVG: its tag, its attributes (without prefix), its own text and its child elements. */
interface Element { tag: string; attrs: Record<string, string>; text: string; children: Element[] }

function elementsOf(svg: string): Element[] {
  const convert = (nodes: Array<Record<string, unknown>>): Element[] =>
    nodes.flatMap((node) => {
      const tag = Object.keys(node).find((key) => key !== ':@');
      if (!tag || tag === '#text') return [];
      const inner = node[tag] as Array<Record<string, unknown>>;
      const text = inner.map((child) => (child['#text'] === undefined ? '' : String(child['#text']))).join('');
      return [{ tag, attrs: (node[':@'] ?? {}) as Record<string, string>, text, children: convert(inner) }];
    });
  return convert(new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true }).parse(svg));
}

/** The items (paths, texts) of every mark group of a kind ("rect", "line", "symbol", "arc", "text"), one list per group. */
function marksOf(svg: string, kind: string): Element[][] {
  const found: Element[][] = [];
  const walk = (element: Element): void => {
    if (element.tag === 'g' && new RegExp(`\\bmark-${kind} role-mark\\b`).test(element.attrs.class ?? '')) found.push(element.children);
    else element.children.forEach(walk);
  };
  elementsOf(svg).forEach(walk);
  return found;
}

/** A rect item's left edge and width, from its path ("M x,y h w v h h -w Z"). */
function rectOf(item: Element): { left: number; width: number } {
  const [, left, width] = /^M(-?[\d.]+),-?[\d.]+h(-?[\d.]+)/.exec(item.attrs.d ?? '') ?? [];
  return { left: Number(left), width: Number(width) };
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

/** Every report type drawn as itself: well-formed SVG, its labels, and the marks that make it that type. */
describeApi('charts: each type drawn as SVG', (ctx) => {
  let sheet: Sheet;
  // A label that needs escaping in XML: the SVG must stay well-formed and show it as written.
  const FIG = 'Fig & "Plum" <b>';
  const CATEGORIES = ['apple', 'pear', FIG];
  const WEIGHT = { controlId: 'weight', normType: 1 };
  const PRICE = { controlId: 'price', normType: 1 };

  /** Saves a chart and fetches its SVG, checking it is well-formed and titled. */
  async function drawn(reportType: number, yaxisList: unknown[], extra: Record<string, unknown> = { xaxes: { controlId: 'kind' } }) {
    const name = `Type ${reportType} <${yaxisList.length}>`;
    const made = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/charts`, { name, reportType, yaxisList, ...extra });
    expect(made.body.error_msg).toBe('');
    const svg = await ctx.app.inject({ method: 'GET', url: `/v3/app/charts/${made.body.data.id}/image.svg`, headers: ctx.auth });
    expect(svg.statusCode).toBe(200);
    expect(XMLValidator.validate(svg.payload)).toBe(true);
    const texts = textsOf(svg.payload);
    expect(texts).toContain(name);
    return { svg: svg.payload, texts };
  }

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Produce', [
      { name: 'Kind', alias: 'kind', type: '2', isTitle: true },
      { name: 'Weight', alias: 'weight', type: '6' },
      { name: 'Price', alias: 'price', type: '6' },
    ]);
    const rows = [['apple', 10, 3], ['pear', 5, 2], [FIG, 7, 4]].map(([kind, weight, price]) => ({ fields: [{ id: 'kind', value: kind }, { id: 'weight', value: weight }, { id: 'price', value: price }] }));
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.error_msg).toBe('');
  });

  it('line (2): a line through the groups', async () => {
    const { svg, texts } = await drawn(2, [WEIGHT]);
    expect(texts).toEqual(expect.arrayContaining(CATEGORIES));
    expect(marksOf(svg, 'line')).toHaveLength(1);
  });

  it('radar (5): one closed polygon per series over the categories, with the series in the legend', async () => {
    const { svg, texts } = await drawn(5, [WEIGHT, PRICE]);
    expect(texts).toEqual(expect.arrayContaining([...CATEGORIES, 'Weight', 'Price']));
    const closed = marksOf(svg, 'line').flat().filter((path) => /^M.*Z$/.test(path.attrs.d ?? ''));
    // Two grid rings and two series, each a closed path through the three categories.
    expect(closed).toHaveLength(4);
    expect(closed.every((path) => (path.attrs.d.match(/[ML]/g) ?? []).length === 3)).toBe(true);
  });

  it('funnel (6): bars centred on one axis, widest first, with their values', async () => {
    const { svg, texts } = await drawn(6, [WEIGHT]);
    expect(texts).toEqual(expect.arrayContaining([...CATEGORIES, '10', '7', '5']));
    const bars = marksOf(svg, 'rect').flat().map(rectOf);
    expect(bars).toHaveLength(3);
    const centres = bars.map((bar) => bar.left + bar.width / 2);
    for (const centre of centres) expect(centre).toBeCloseTo(centres[0], 1);
    expect(bars.map((bar) => bar.width)).toEqual([...bars.map((bar) => bar.width)].sort((a, b) => b - a));
  });

  it('dual axis (7): bars on the left axis and a line on a second, right axis; one series is plain bars', async () => {
    const { svg, texts } = await drawn(7, [WEIGHT, PRICE]);
    expect(texts).toEqual(expect.arrayContaining([...CATEGORIES, 'Weight', 'Price']));
    expect(svg.match(/aria-label="Y-axis/g)).toHaveLength(2);
    expect(marksOf(svg, 'rect').flat()).toHaveLength(3);
    expect(marksOf(svg, 'line')).toHaveLength(1);
    const single = await drawn(7, [WEIGHT]);
    expect(single.svg.match(/aria-label="Y-axis/g)).toHaveLength(1);
    expect(marksOf(single.svg, 'line')).toHaveLength(0);
  });

  it('pivot table (8): a bold header of the x axis and series names, then one row of text per group', async () => {
    const { svg, texts } = await drawn(8, [WEIGHT, PRICE]);
    expect(texts).toEqual(expect.arrayContaining(['Kind', 'Weight', 'Price', ...CATEGORIES, '10', '3', '5', '2', '7', '4']));
    const bold = marksOf(svg, 'text').flat().filter((text) => text.attrs['font-weight'] === 'bold');
    expect(bold.map((text) => text.text)).toEqual(['Kind', 'Weight', 'Price']);
    expect(marksOf(svg, 'rect')).toHaveLength(0);
  });

  it('number (10): the total of each series as a figure', async () => {
    const { texts } = await drawn(10, [WEIGHT, PRICE], {});
    expect(texts).toEqual(expect.arrayContaining(['22', '9', 'Weight', 'Price']));
  });

  it('bidirectional bar (11): the two series as two bar groups back to back, the first growing leftwards', async () => {
    const { svg, texts } = await drawn(11, [WEIGHT, PRICE]);
    expect(texts).toEqual(expect.arrayContaining([...CATEGORIES, 'Weight', 'Price']));
    const [left, right] = marksOf(svg, 'rect').map((group) => group.map(rectOf));
    expect([left?.length, right?.length]).toEqual([3, 3]);
    // Left bars share their right edge (they grow to the left); right bars share their left edge.
    const ends = left.map((bar) => bar.left + bar.width);
    for (const end of ends) expect(end).toBeCloseTo(ends[0], 1);
    expect(new Set(left.map((bar) => bar.left)).size).toBe(3);
    for (const bar of right) expect(bar.left).toBeCloseTo(right[0].left, 1);
  });

  it('scatter (12): one labelled point per group at (first series, second series); one series draws points by group', async () => {
    const { svg, texts } = await drawn(12, [WEIGHT, PRICE]);
    expect(texts).toEqual(expect.arrayContaining([...CATEGORIES, 'Weight', 'Price']));
    expect(marksOf(svg, 'symbol').flat()).toHaveLength(3);
    expect(marksOf(svg, 'rect')).toHaveLength(0);
    const single = await drawn(12, [WEIGHT]);
    expect(single.texts).toEqual(expect.arrayContaining(CATEGORIES));
    expect(marksOf(single.svg, 'symbol').flat()).toHaveLength(3);
  });

  it('word cloud (13): the group labels as words sized by value, largest first', async () => {
    const { svg } = await drawn(13, [WEIGHT]);
    const words = marksOf(svg, 'text').flat();
    const sizeOf = (word: string) => parseFloat(words.find((text) => text.text === word)?.attrs['font-size'] ?? 'NaN');
    expect(words.map((text) => text.text)).toEqual(['apple', FIG, 'pear']);
    expect(sizeOf('apple')).toBeGreaterThan(sizeOf(FIG));
    expect(sizeOf(FIG)).toBeGreaterThan(sizeOf('pear'));
    expect(marksOf(svg, 'rect')).toHaveLength(0);
  });

  it('gauge (14): an arc to the value over a round maximum, the value written in the middle', async () => {
    const { svg, texts } = await drawn(14, [WEIGHT], {});
    expect(texts).toEqual(expect.arrayContaining(['22', 'Weight', '0', '25']));
    // The track and the filled part.
    expect(marksOf(svg, 'arc')).toHaveLength(2);
  });

  it('progress (15): a bar per group filled to its share of the largest (no target series), with the percent', async () => {
    const { svg, texts } = await drawn(15, [WEIGHT]);
    expect(texts).toEqual(expect.arrayContaining([...CATEGORIES, '100% · 10 / 10', '50% · 5 / 10', '70% · 7 / 10']));
    const [track, fill] = marksOf(svg, 'rect').map((group) => group.map(rectOf));
    // The groups come in the pivot's order, which differs between the databases.
    expect(fill.map((bar) => bar.width / track[0].width).sort()).toEqual([0.5, 0.7, 1].map((share) => expect.closeTo(share, 3)));
    const single = await drawn(15, [WEIGHT, PRICE], {});
    expect(single.texts).toEqual(expect.arrayContaining(['Weight', `244% · 22 / 9`]));
  });

  it('ranking (16): horizontal bars largest first, each label led by its rank', async () => {
    const { svg, texts } = await drawn(16, [WEIGHT]);
    expect(texts).toEqual(expect.arrayContaining(['1. apple', `2. ${FIG}`, '3. pear']));
    const bars = marksOf(svg, 'rect').flat().map(rectOf);
    expect(bars.map((bar) => bar.width)).toEqual([...bars.map((bar) => bar.width)].sort((a, b) => b - a));
  });

  it('draws every type with no data as a well-formed SVG with its title', async () => {
    const nothing = { type: 'condition', field: 'weight', operator: 'gt', value: 1000 };
    for (const reportType of [1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16]) {
      const axis = [10, 14, 15].includes(reportType) ? {} : { xaxes: { controlId: 'kind' } };
      await drawn(reportType, [WEIGHT, PRICE], { ...axis, filter: nothing });
      await drawn(reportType, [WEIGHT], { ...axis, filter: nothing });
    }
  });
});
