import { beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiResponse } from '../helpers/api-harness.js';
import { createRecord, makeSheet, valueOf, type PivotData, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/** Views: the batch create with its checks, get / change / delete, the worksheet's list, and reads through a view. */

const VIEW_TEST_FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
  { name: 'Stage', alias: 'stage', type: '9', options: [{ value: 'Lead', index: 1 }, { value: 'Won', index: 2 }, { value: 'Lost', index: 3 }] },
  { name: 'Owner', alias: 'owner', type: '26' },
  { name: 'Starts', alias: 'starts', type: '15' },
  { name: 'Ends', alias: 'ends', type: '16' },
  { name: 'Place', alias: 'place', type: '40' },
  { name: 'Parent', alias: 'parent', type: '29', subType: 1, dataSource: 'selfRelation' },
  { name: 'Amount', alias: 'amount', type: '6' },
  { name: 'Notes', alias: 'notes', type: '2' },
];

interface View {
  id: string;
  name: string;
  viewType: string;
  type: number;
  config: Record<string, unknown>;
  filter: unknown;
  sort: Array<{ field: string; isAsc: boolean }>;
  tableFields: string[];
  card: Record<string, unknown> | null;
  [key: string]: unknown;
}

interface Page {
  rows: WireRecord[];
  total: number;
}

describeApi('views', (ctx) => {
  let sheet: Sheet;
  let other: Sheet;
  const views = (s: Sheet = sheet) => `/v3/app/worksheets/${s.id}/views`;
  const createViews = (body: unknown, s: Sheet = sheet) => ctx.call<{ views: View[] }>('POST', `${views(s)}/batch`, body);
  const list = (body: unknown) => ctx.call<Page>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, body);
  const titles = (page: ApiResponse<Page>) => page.body.data.rows.map((r) => valueOf(r, sheet.field.title));
  const worksheetViews = async (s: Sheet = sheet) => (await ctx.call<{ views: Array<{ id: string; name: string; type: number }> }>('GET', `/v3/app/worksheets/${s.id}`)).body.data.views;

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Deals', VIEW_TEST_FIELDS);
    other = await makeSheet(ctx, 'Other', [
      { name: 'Name', alias: 'name', type: '2', isTitle: true },
      { name: 'Deal', alias: 'deal', type: '29', subType: 1, dataSource: sheet.id },
    ]);
    const records: Array<[string, string, number]> = [
      ['a', 'Lead', 10],
      ['b', 'Won', 50],
      ['c', 'Won', 20],
      ['d', 'Lost', 70],
      ['e', 'Won', 5],
    ];
    for (const [title, stage, amount] of records) {
      await createRecord(ctx, sheet, [
        { id: 'title', value: title },
        { id: 'stage', value: stage },
        { id: 'amount', value: amount },
        { id: 'notes', value: `note ${title}` },
      ]);
    }
  });

  it('gives a new worksheet an "All" table view, unless createDefaultView is false', async () => {
    expect(await worksheetViews()).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'All', type: 0 }]);
    const bare = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Bare', createDefaultView: false, fields: [{ name: 'T', type: '2', isTitle: true }] });
    expect(bare.body.error_msg).toBe('');
    expect(await worksheetViews({ id: bare.body.data.worksheetId, field: {} })).toEqual([]);
    // The default view is a view like any other: it can be read and lists every record.
    const [all] = await worksheetViews();
    const got = await ctx.call<View>('GET', `${views()}/${all.id}`);
    expect(got.body.data).toMatchObject({ id: all.id, name: 'All', viewType: 'table', type: 0, filter: null, sort: [], tableFields: [] });
    expect(titles(await list({ viewId: all.id }))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('creates views of every type with their settings, fields by alias stored as ids', async () => {
    const created = await createViews({
      views: [
        { name: 'Grid', viewType: 'table', tableFields: ['title', 'amount'], rowHeight: 2, group: 'stage' },
        { name: 'Board', viewType: 'kanban', config: { groupField: 'stage' }, card: { titleField: 'title', displayFields: ['amount'] }, color: 'stage' },
        { name: 'People', viewType: 1, config: { groupField: 'owner' } },
        { name: 'Tree', viewType: 'hierarchy', config: { relationField: 'parent' } },
        { name: 'Cards', viewType: 'Gallery' },
        { name: 'Dates', viewType: 'calendar', config: { dates: [{ startField: 'starts', endField: 'ends' }] } },
        { name: 'Plan', viewType: 'gantt', config: { startField: 'starts', endField: sheet.field.ends } },
        { name: 'One', viewType: 'detail', config: { mode: 'first' } },
        { name: 'Crew', viewType: 'resource', config: { startField: 'starts', endField: 'ends', resourceField: 'owner' } },
        { name: 'Where', viewType: '8', config: { locationField: 'place' } },
        { name: 'Ext', viewType: 21 },
      ],
    });
    expect(created.body.error_msg).toBe('');
    expect(created.status).toBe(200);
    const made = created.body.data.views;
    expect(made.map((v) => [v.name, v.viewType, v.type])).toEqual([
      ['Grid', 'table', 0],
      ['Board', 'kanban', 1],
      ['People', 'kanban', 1],
      ['Tree', 'hierarchy', 2],
      ['Cards', 'gallery', 3],
      ['Dates', 'calendar', 4],
      ['Plan', 'gantt', 5],
      ['One', 'detail', 6],
      ['Crew', 'resource', 7],
      ['Where', 'map', 8],
      ['Ext', 'plugin', 21],
    ]);
    for (const v of made) expect(v.id).toMatch(/^[0-9a-f]{24}$/);
    const f = sheet.field;
    expect(made[0]).toMatchObject({ tableFields: [f.title, f.amount], rowHeight: 2, group: [f.stage] });
    expect(made[1]).toMatchObject({ config: { groupField: f.stage }, card: { titleField: f.title, displayFields: [f.amount] }, color: f.stage });
    expect(made[3].config).toEqual({ relationField: f.parent, childType: 1 });
    expect(made[5].config).toEqual({ dates: [{ startField: f.starts, endField: f.ends }] });
    expect(made[8].config).toEqual({ startField: f.starts, endField: f.ends, resourceField: f.owner });
    expect(made[9].config).toEqual({ locationField: f.place });
    // The worksheet lists them after its default view, in order.
    const listed = await worksheetViews();
    expect(listed.slice(1)).toEqual(made.map((v) => ({ id: v.id, name: v.name, type: v.type })));
  });

  it('refuses a batch with one bad view whole, naming the view and the key', async () => {
    const before = await worksheetViews();
    const cases: Array<[unknown, number, string[]]> = [
      [{ name: 'Bad board', viewType: 'kanban', config: { groupField: 'amount' } }, 10002, ['views[1]', 'Bad board', 'config.groupField', 'Number']],
      [{ name: 'No group', viewType: 'kanban' }, 10001, ['views[1]', 'No group', 'config.groupField']],
      [{ name: 'Cal', viewType: 'calendar', config: { dates: [{ startField: 'title' }] } }, 10002, ['views[1]', 'Cal', 'config.dates[0].startField', 'Date']],
      [{ name: 'Map', viewType: 'map', config: { locationField: 'nope' } }, 10002, ['views[1]', 'Map', 'config.locationField', 'no field "nope"']],
      [{ name: 'Tree', viewType: 'hierarchy', config: { relationField: 'stage' } }, 10002, ['Tree', 'config.relationField', 'Relation']],
      [{ name: 'Cols', tableFields: ['title', 'ghost'] }, 10002, ['views[1]', 'Cols', 'tableFields[1]', 'ghost']],
      [{ name: 'Sorted', sort: [{ field: 'gone', isAsc: true }] }, 10002, ['Sorted', 'sort[0].field']],
      [{ name: 'Filtered', filter: { type: 'condition', field: 'amount', operator: 'contains', value: 1 } }, 10002, ['Filtered', 'views[1].filter', 'contains']],
      [{ name: 'Typed', viewType: 'spreadsheet' }, 10002, ['Typed', 'viewType']],
      [{ name: 'Colored', color: 'amount' }, 10002, ['Colored', 'color']],
      [{ name: 'Grouped board', viewType: 'kanban', config: { groupField: 'stage' }, group: 'stage' }, 10002, ['Grouped board', 'group']],
    ];
    for (const [bad, code, parts] of cases) {
      const answer = await createViews({ views: [{ name: 'Fine', viewType: 'table' }, bad] });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.error_code, JSON.stringify(bad)).toBe(code);
      for (const part of parts) expect(answer.body.error_msg).toContain(part);
    }
    // A hierarchy needs a relation of the worksheet to itself.
    const elsewhere = await createViews({ views: [{ name: 'Up', viewType: 'hierarchy', config: { relationField: 'deal' } }] }, other);
    expect(elsewhere.body.error_code).toBe(10002);
    expect(elsewhere.body.error_msg).toContain('itself');
    // Nothing of any refused batch was stored.
    expect(await worksheetViews()).toEqual(before);
  });

  it('reads, changes and deletes a view', async () => {
    const [made] = (await createViews({ views: [{ name: 'Mine', filter: { type: 'condition', field: 'stage', operator: 'eq', value: 'Won' } }] })).body.data.views;
    expect(made.filter).toEqual({ type: 'condition', field: sheet.field.stage, operator: 'eq', value: 'Won' });
    const got = await ctx.call<View>('GET', `${views()}/${made.id}`);
    expect(got.body.data).toEqual(made);
    const changed = await ctx.call<View>('PATCH', `${views()}/${made.id}`, { name: 'Mine, sorted', sort: [{ fieldId: 'amount', sortType: 2 }] });
    expect(changed.body.error_msg).toBe('');
    // Keys not sent keep their values.
    expect(changed.body.data).toMatchObject({ name: 'Mine, sorted', filter: made.filter, sort: [{ field: sheet.field.amount, isAsc: false }] });
    expect((await ctx.call<View>('GET', `${views()}/${made.id}`)).body.data).toEqual(changed.body.data);
    // A change is checked as a whole view: a board without its group field is refused.
    const toBoard = await ctx.call('PATCH', `${views()}/${made.id}`, { viewType: 'kanban' });
    expect(toBoard.body.error_code).toBe(10001);
    expect(toBoard.body.error_msg).toContain('config.groupField');
    const badPatch = await ctx.call('PATCH', `${views()}/${made.id}`, { tableFields: ['nope'] });
    expect(badPatch.body.error_code).toBe(10002);
    expect(badPatch.body.error_msg).toContain('Mine, sorted');
    const deleted = await ctx.call('DELETE', `${views()}/${made.id}`);
    expect(deleted.body).toMatchObject({ success: true, error_code: 1 });
    for (const [method, body] of [['GET', undefined], ['PATCH', { name: 'x' }], ['DELETE', undefined]] as const) {
      const gone = await ctx.call(method, `${views()}/${made.id}`, body);
      expect(gone.status).toBe(404);
      expect(gone.body.error_code).toBe(10007);
    }
    expect((await worksheetViews()).map((v) => v.id)).not.toContain(made.id);
    // A view of another worksheet is not found through this one.
    const [foreign] = (await createViews({ views: [{ name: 'Theirs' }] }, other)).body.data.views;
    expect((await ctx.call('GET', `${views()}/${foreign.id}`)).body.error_code).toBe(10007);
  });

  it('lists through a view: its filter ANDed, its sort without sorts, its fields without fields', async () => {
    const [won] = (
      await createViews({
        views: [
          {
            name: 'Won by amount',
            filter: { type: 'condition', field: 'stage', operator: 'eq', value: 'Won' },
            sort: [{ field: 'amount', isAsc: false }],
            tableFields: ['title', 'amount'],
          },
        ],
      })
    ).body.data.views;
    const page = await list({ viewId: won.id });
    expect(page.body.error_msg).toBe('');
    expect(titles(page)).toEqual(['b', 'c', 'e']);
    expect(page.body.data.total).toBe(3);
    expect(page.body.data.rows[0].fields.map((f) => f.id)).toEqual([sheet.field.title, sheet.field.amount]);
    // The request's filter is ANDed with the view's.
    expect(titles(await list({ viewId: won.id, filter: { type: 'condition', field: 'amount', operator: 'ge', value: 20 } }))).toEqual(['b', 'c']);
    // The request's sorts and fields win over the view's.
    const own = await list({ viewId: won.id, sorts: [{ field: 'title', isAsc: true }], fields: ['notes'] });
    expect(own.body.data.rows.map((r) => valueOf(r, sheet.field.notes))).toEqual(['note b', 'note c', 'note e']);
    expect(own.body.data.rows[0].fields.map((f) => f.id)).toEqual([sheet.field.notes]);
    // Blank placeholders name nothing: the view's sort and fields apply.
    expect(titles(await list({ viewId: won.id, sorts: [{ field: '', isAsc: true }], fields: [''] }))).toEqual(['b', 'c', 'e']);
    // A change of the view applies to the next read at once, and a deleted view is gone at once.
    const patched = await ctx.call('PATCH', `${views()}/${won.id}`, { filter: { type: 'condition', field: 'stage', operator: 'eq', value: 'Lost' } });
    expect(patched.body.error_msg).toBe('');
    expect(titles(await list({ viewId: won.id }))).toEqual(['d']);
    expect((await ctx.call('DELETE', `${views()}/${won.id}`)).body.error_code).toBe(1);
    expect((await list({ viewId: won.id })).body.error_code).toBe(10007);
    // An unknown view is 10007, an empty viewId none.
    expect((await list({ viewId: '65dda1a5a608a40050774c8f' })).body.error_code).toBe(10007);
    expect(titles(await list({ viewId: '' }))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('shows the fields of the view\'s own format with tableView false', async () => {
    const [board] = (
      await createViews({ views: [{ name: 'Cards by stage', viewType: 'kanban', config: { groupField: 'stage' }, card: { titleField: 'title', displayFields: ['notes'] }, tableFields: ['amount'] }] })
    ).body.data.views;
    const fieldsOf = (page: ApiResponse<Page>) => page.body.data.rows[0].fields.map((f) => f.id).sort();
    const f = sheet.field;
    expect(fieldsOf(await list({ viewId: board.id }))).toEqual([f.amount]);
    expect(fieldsOf(await list({ viewId: board.id, tableView: true }))).toEqual([f.amount]);
    expect(fieldsOf(await list({ viewId: board.id, tableView: false }))).toEqual([f.title, f.notes, f.stage].sort());
  });

  it('pivots through a view: its filter ANDed with the request\'s', async () => {
    const [notLost] = (await createViews({ views: [{ name: 'Open or won', filter: { type: 'condition', field: 'stage', operator: 'ne', value: 'Lost' } }] })).body.data.views;
    const pivot = (body: Record<string, unknown>) => ctx.call<PivotData>('POST', `/v3/app/worksheets/${sheet.id}/rows/pivot`, { values: [{ field: 'amount', aggregation: 'SUM' }], includeSummary: true, ...body });
    const through = await pivot({ viewId: notLost.id });
    expect(through.body.error_msg).toBe('');
    expect(through.body.data.summary).toEqual({ [sheet.field.amount]: 85 });
    const both = await pivot({ viewId: notLost.id, filter: { type: 'condition', field: 'amount', operator: 'gt', value: 10 } });
    expect(both.body.data.summary).toEqual({ [sheet.field.amount]: 70 });
    expect((await pivot({ viewId: 'nope' })).body.error_code).toBe(10007);
  });

  it('forgets a removed field in its views, which keep working', async () => {
    const add = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { addFields: [{ name: 'Temp', alias: 'temp', type: '6' }] });
    expect(add.body.error_msg).toBe('');
    const temp = (await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${sheet.id}`)).body.data.fields.find((x) => x.alias === 'temp')!.id;
    const [view] = (
      await createViews({
        views: [
          {
            name: 'With temp',
            filter: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'temp', operator: 'isempty' }, { type: 'condition', field: 'stage', operator: 'eq', value: 'Won' }] },
            sort: [{ field: 'temp' }, { field: 'amount', isAsc: true }],
            tableFields: ['temp', 'title'],
          },
        ],
      })
    ).body.data.views;
    expect(view.tableFields).toEqual([temp, sheet.field.title]);
    const removed = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { removeFields: ['temp'] });
    expect(removed.body.error_msg).toBe('');
    const got = (await ctx.call<View>('GET', `${views()}/${view.id}`)).body.data;
    expect(got.tableFields).toEqual([sheet.field.title]);
    expect(got.sort).toEqual([{ field: sheet.field.amount, isAsc: true }]);
    const page = await list({ viewId: view.id });
    expect(page.body.error_msg).toBe('');
    expect(titles(page)).toEqual(['e', 'c', 'b']);
  });

  it('sorts by system fields and takes the {fieldId, sortType} form and the older type names', async () => {
    const made = await createViews({ views: [{ name: 'Newest', viewType: 'sheet', sort: [{ fieldId: 'autoid', sortType: 2 }] }, { name: 'Old board', viewType: 'board', config: { groupField: 'stage' } }] });
    expect(made.body.error_msg).toBe('');
    const [newest, board] = made.body.data.views;
    expect(newest.sort).toEqual([{ field: 'autoid', isAsc: false }]);
    expect(board.type).toBe(1);
    expect(titles(await list({ viewId: newest.id }))).toEqual(['e', 'd', 'c', 'b', 'a']);
  });

  it('asks for a new type setting when the field it named was removed', async () => {
    const add = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { addFields: [{ name: 'Phase', alias: 'phase', type: '11', options: [{ value: 'One', index: 1 }] }] });
    expect(add.body.error_msg).toBe('');
    const [board] = (await createViews({ views: [{ name: 'By phase', viewType: 'kanban', config: { groupField: 'phase' } }] })).body.data.views;
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { removeFields: ['phase'] })).body.error_msg).toBe('');
    // Reads through it go on working.
    expect(titles(await list({ viewId: board.id }))).toEqual(['a', 'b', 'c', 'd', 'e']);
    const rename = await ctx.call('PATCH', `${views()}/${board.id}`, { name: 'Renamed' });
    expect(rename.body.error_code).toBe(10002);
    expect(rename.body.error_msg).toContain('config.groupField');
    const regroup = await ctx.call<View>('PATCH', `${views()}/${board.id}`, { name: 'Renamed', config: { groupField: 'stage' } });
    expect(regroup.body.error_msg).toBe('');
    expect(regroup.body.data).toMatchObject({ name: 'Renamed', config: { groupField: sheet.field.stage } });
  });

  it('deletes the views with the worksheet', async () => {
    const doomed = await makeSheet(ctx, 'Doomed', [{ name: 'T', alias: 't', type: '2', isTitle: true }]);
    const [view] = (await createViews({ views: [{ name: 'Soon gone' }] }, doomed)).body.data.views;
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${doomed.id}`)).body.error_code).toBe(1);
    const rows = await ctx.database.db.selectFrom('views').select('id').where('worksheet_id', '=', doomed.id).execute();
    expect(rows).toEqual([]);
    expect(view.id).toMatch(/^[0-9a-f]{24}$/);
  });
});
