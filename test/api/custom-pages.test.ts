import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface Page { id: string; name: string; version: number; components: Array<Record<string, unknown>> }

const layout = (x: number, w: number) => ({ x, y: 0, w, h: 6, minW: 2, minH: 2 });

/** Custom pages: components read and replaced whole, with a version check, grid rules, references and sanitised rich text. */
describeApi('custom pages: components, versions, grid and references', (ctx) => {
  let pageId: string;
  let sheet: Sheet;
  let chartId: string;
  const url = () => `/v3/app/custom-pages/${pageId}`;
  const page = async () => (await ctx.call<Page>('GET', url())).body.data;

  beforeAll(async () => {
    const items = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/items/batch', { items: [{ sectionId: '', type: 1, name: 'Dashboard' }] });
    expect(items.body.error_msg).toBe('');
    pageId = items.body.data[0].id;
    sheet = await makeSheet(ctx, 'Tickets', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    const chart = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/charts`, { name: 'Count', reportType: 10, yaxisList: [{ controlId: 'record_count' }] });
    expect(chart.body.error_msg).toBe('');
    chartId = chart.body.data.id;
  });

  it('starts empty at version 0, saves a layout and moves to version 1', async () => {
    expect(await page()).toEqual({ id: pageId, name: 'Dashboard', version: 0, components: [] });
    const components = [
      { type: 1, value: chartId, worksheetId: sheet.id, web: { title: 'Tickets', titleVisible: true, visible: true, layout: layout(0, 24) }, mobile: { layout: null } },
      { type: 2, value: '<p>Hello <b>team</b><script>alert(1)</script><a href="javascript:alert(2)">x</a></p>', web: { title: 'Note', layout: layout(24, 24) } },
    ];
    const saved = await ctx.call<{ version: number }>('PUT', url(), { version: 0, components });
    expect(saved.body.error_msg).toBe('');
    expect(saved.body.data.version).toBe(1);
    const read = await page();
    expect(read.version).toBe(1);
    expect(read.components[0]).toMatchObject({ type: 1, value: chartId, web: { title: 'Tickets' } });
    expect(read.components[1].value).toBe('<p>Hello <b>team</b><a>x</a></p>');
  });

  it('refuses a stale version with the current one in the message, changing nothing', async () => {
    const stale = await ctx.call('PUT', url(), { version: 0, components: [] });
    expect(stale.body).toMatchObject({ success: false, error_code: 10006 });
    expect(stale.body.error_msg).toContain('version 1');
    expect((await page()).components).toHaveLength(2);
  });

  it('checks the grid, the component types and the references, naming the component', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ type: 2, value: 'x', web: { layout: layout(30, 20) } }, 10002, 'components[0].web.layout: x + w = 50'],
      [{ type: 2, value: 'x', web: { layout: { ...layout(0, 4), h: -1 } } }, 10002, 'components[0].web.layout.h'],
      [{ type: 7, web: { layout: layout(0, 4) } }, 10002, 'components[0].type'],
      [{ type: 1, value: 'no-such-chart', web: { layout: layout(0, 4) } }, 10002, 'components[0].value: no chart "no-such-chart"'],
      [{ type: 5, worksheetId: 'nope', web: { layout: layout(0, 4) } }, 10002, 'components[0].worksheetId'],
      [{ type: 5, worksheetId: sheet.id, viewId: 'nope', web: { layout: layout(0, 4) } }, 10002, 'components[0].viewId: no view "nope"'],
      [{ type: 2, value: 'x', web: {} }, 10001, 'components[0].web.layout is required'],
    ];
    for (const [component, code, message] of cases) {
      const refused = await ctx.call('PUT', url(), { version: 1, components: [component] });
      expect(refused.body.error_code).toBe(code);
      expect(refused.body.error_msg).toContain(message);
    }
    expect((await page()).version).toBe(1);
    expect((await ctx.call('GET', '/v3/app/custom-pages/unknown')).body.error_code).toBe(10007);
  });
});
