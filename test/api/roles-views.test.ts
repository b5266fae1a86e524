import { beforeAll, expect, it } from 'vitest';
import { setKeyWorksheets } from '../../src/modules/app-keys/index.js';
import { addKey } from '../../src/modules/setup/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { giveRole, memberWithToken } from '../helpers/people.js';
import { makeSheet, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Rights given through views (`recordPermissionInViews`; custom keys' views): a right reaches only
 * the records its views show, within `recordDataScope`; several views and roles add up to the union
 * of their records; a read through a view the right does not come through is 10005; and every read
 * path (list, get, pivot, relations, logs, discussions, share links, charts) and write path sees it.
 */

const condition = (field: string, operator: string, value: unknown) => ({ type: 'condition', field, operator, value });

describeApi('roles: rights through views', (ctx) => {
  let deals: Sheet;
  let customers: Sheet;
  const rows = (sheet: Sheet = deals) => `/v3/app/worksheets/${sheet.id}/rows`;
  const who: Record<string, { id: string; headers: Record<string, string> }> = {};
  /** View ids by name, record ids by title. */
  const view: Record<string, string> = {};
  const record: Record<string, string> = {};

  async function views(sheet: Sheet, made: Array<{ name: string; filter?: unknown }>): Promise<void> {
    const created = await ctx.call<{ views: Array<{ id: string; name: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/views/batch`, { views: made.map((v) => ({ viewType: 'table', ...v })) });
    expect(created.body.error_msg).toBe('');
    for (const v of created.body.data.views) view[v.name] = v.id;
  }

  const role = (name: string, worksheetPermissions: unknown[], members: string[]) => giveRole(ctx, name, { permissionScope: 0, worksheetPermissions }, members.map((m) => who[m].id));

  /** Rights in a worksheet through views: `[viewName, 'read+edit+delete']` pairs, with data scopes and actions. */
  function through(sheet: Sheet, entries: Array<[string, string]>, scope: { read?: number; edit?: number; delete?: number } = {}, add = false) {
    return {
      id: sheet.id,
      recordPermissionInViews: entries.map(([name, rights]) => ({ viewId: view[name], read: rights.includes('read'), edit: rights.includes('edit'), delete: rights.includes('delete') })),
      recordDataScope: { read: scope.read ?? 100, edit: scope.edit ?? 100, delete: scope.delete ?? 100 },
      recordActions: { add, share: true, discuss: true, log: true },
    };
  }

  async function create(sheet: Sheet, title: string, fields: unknown[], as?: string): Promise<void> {
    const made = await ctx.call<{ id: string }>('POST', rows(sheet), { fields: [{ id: 'title', value: title }, ...fields] }, as ? who[as].headers : undefined);
    expect(made.body.error_msg).toBe('');
    record[title] = made.body.data.id;
  }

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Customers', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'Tier', alias: 'tier', type: '2' },
    ]);
    deals = await makeSheet(ctx, 'Deals', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Amount', alias: 'amount', type: '6' },
      { name: 'Status', alias: 'status', type: '2' },
      { name: 'Customer', alias: 'customer', type: 'Relation', subType: 2, dataSource: customers.id, relation: { bidirectional: false } },
    ]);
    await views(deals, [{ name: 'Open', filter: condition('status', 'eq', 'open') }, { name: 'Large', filter: condition('amount', 'ge', 1000) }, { name: 'Everything' }, { name: 'Temporary' }]);
    await views(customers, [{ name: 'VIP', filter: condition('tier', 'eq', 'vip') }]);
    for (const name of ['opener', 'union', 'two', 'temp']) who[name] = await memberWithToken(ctx, name);
    // opener: open deals (read, edit), VIP customers. union: that, plus their own large deals (read, delete, add).
    // two: one role, open deals to read and large ones to read and delete. temp: everything through a view deleted later.
    await role('Open deals', [through(deals, [['Open', 'read+edit']]), through(customers, [['VIP', 'read']])], ['opener', 'union']);
    await role('Own large deals', [through(deals, [['Large', 'read+delete']], { read: 20, delete: 20 }, true)], ['union']);
    await role('Two views', [through(deals, [['Open', 'read'], ['Large', 'read+delete']])], ['two']);
    await role('Temporary', [through(deals, [['Temporary', 'read']])], ['temp']);
    await create(customers, 'c-vip', [{ id: 'tier', value: 'vip' }]);
    await create(customers, 'c-plain', [{ id: 'tier', value: 'plain' }]);
    await create(deals, 'open-small', [{ id: 'status', value: 'open' }, { id: 'amount', value: 10 }, { id: 'customer', value: [record['c-vip'], record['c-plain']] }]);
    await create(deals, 'closed-large', [{ id: 'status', value: 'closed' }, { id: 'amount', value: 5000 }]);
    await create(deals, 'closed-small', [{ id: 'status', value: 'closed' }, { id: 'amount', value: 10 }]);
    await create(deals, 'closed-large-own', [{ id: 'status', value: 'closed' }, { id: 'amount', value: 5000 }], 'union');
  });

  async function titles(headers: Record<string, string>, body: Record<string, unknown> = {}, sheet = deals): Promise<string[] | number> {
    const listed = await ctx.call<{ rows: WireRecord[]; total: number }>('POST', `${rows(sheet)}/list`, { sorts: [{ field: 'title', isAsc: true }], ...body }, headers);
    if (listed.body.error_code !== 1) return listed.body.error_code;
    expect(listed.body.data.total).toBe(listed.body.data.rows.length);
    return listed.body.data.rows.map((r) => String(valueOf(r, sheet.field.title)));
  }

  it('lists the records of the views a right comes through, the union over views and roles, within each data scope', async () => {
    expect(await titles(who.opener.headers)).toEqual(['open-small']);
    // Open deals (every one) and large deals of their own (data scope 20), from two roles.
    expect(await titles(who.union.headers)).toEqual(['closed-large-own', 'open-small']);
    expect(await titles(who.two.headers)).toEqual(['closed-large', 'closed-large-own', 'open-small']);
    expect(await titles(who.opener.headers, {}, customers)).toEqual(['c-vip']);
  });

  it('lists through a view only when the right comes through it: 10005 otherwise, 10007 for no such view', async () => {
    expect(await titles(who.opener.headers, { viewId: view.Open })).toEqual(['open-small']);
    expect(await titles(who.two.headers, { viewId: view.Large })).toEqual(['closed-large', 'closed-large-own']);
    const refused = await ctx.call('POST', `${rows()}/list`, { viewId: view.Large }, who.opener.headers);
    expect(refused.body).toMatchObject({ error_code: 10005, error_msg: 'you may not read records of the worksheet "Deals" through the view "Large"' });
    expect(await titles(who.opener.headers, { viewId: view.Everything })).toBe(10005);
    expect(await titles(who.opener.headers, { viewId: '000000000000000000000000' })).toBe(10007);
    const pivot = await ctx.call('POST', `${rows()}/pivot`, { viewId: view.Large, values: [{ field: 'record_count' }] }, who.opener.headers);
    expect(pivot.body.error_code).toBe(10005);
    // The application's administrators read through any view.
    expect(await titles(ctx.auth, { viewId: view.Large })).toEqual(['closed-large', 'closed-large-own']);
  });

  it('gets, counts, relates, logs, discusses and shares only records in reach (10007 for the others)', async () => {
    const as = who.opener.headers;
    const code = async (method: string, path: string, body?: unknown) => (await ctx.call(method, path, body, as)).body.error_code;
    const inReach = `${rows()}/${record['open-small']}`;
    const outOfReach = `${rows()}/${record['closed-large']}`;
    expect([await code('GET', inReach), await code('GET', outOfReach)]).toEqual([1, 10007]);
    expect([await code('GET', `${inReach}/logs`), await code('GET', `${outOfReach}/logs`)]).toEqual([1, 10007]);
    expect([await code('GET', `${inReach}/discussions`), await code('GET', `${outOfReach}/discussions`)]).toEqual([1, 10007]);
    expect([await code('POST', `${inReach}/share-link`, {}), await code('POST', `${outOfReach}/share-link`, {})]).toEqual([1, 10007]);
    const counted = await ctx.call<{ pivot: Array<{ values: Record<string, number> }> }>('POST', `${rows()}/pivot`, { values: [{ field: 'record_count' }] }, as);
    expect(counted.body.data.pivot[0].values.record_count).toBe(1);
    // The related customers too are those their rights reach: the VIP one only.
    const related = await ctx.call<{ rows: WireRecord[] }>('GET', `${inReach}/relations/customer`, undefined, as);
    expect(related.body.data.rows.map((r) => String(valueOf(r, customers.field.title)))).toEqual(['c-vip']);
    const chart = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${deals.id}/charts`, { name: 'Deals', reportType: 10, yaxisList: [{ controlId: 'record_count' }] });
    const data = await ctx.call<{ points: Array<{ values: number[] }> }>('GET', `/v3/app/charts/${chart.body.data.id}/data`, undefined, as);
    expect(data.body.data.points).toEqual([{ x: null, values: [1] }]);
  });

  it('edits and deletes only records of the views that give those rights (10005 for a record read but not changeable)', async () => {
    const change = async (as: string, title: string) => (await ctx.call('PATCH', `${rows()}/${record[title]}`, { fields: [{ id: 'amount', value: 20 }] }, who[as].headers)).body;
    expect((await change('opener', 'open-small')).error_code).toBe(1);
    expect((await change('opener', 'closed-large')).error_code).toBe(10007);
    const remove = async (as: string, title: string) => (await ctx.call('DELETE', `${rows()}/${record[title]}`, undefined, who[as].headers)).body;
    expect(await remove('union', 'open-small')).toMatchObject({ error_code: 10005, error_msg: `you may not delete the record "${record['open-small']}"` });
    expect(await remove('two', 'open-small')).toMatchObject({ error_code: 10005, error_msg: `you may not delete the record "${record['open-small']}"` });
    const batch = await ctx.call<{ successfulRowIds: string[]; failedRowIds: string[] }>('DELETE', `${rows()}/batch`, { rowIds: [record['closed-large'], record['closed-large-own']] }, who.union.headers);
    expect(batch.body.data).toEqual({ successfulRowIds: [record['closed-large-own']], failedRowIds: [record['closed-large']] });
    expect((await ctx.call('POST', `${rows()}/batch/restore`, { rowIds: [record['closed-large-own']] })).body.error_code).toBe(1);
  });

  it('follows a change of a view’s filter at once, and reaches nothing through a deleted view', async () => {
    expect(await titles(who.temp.headers)).toEqual(['closed-large', 'closed-large-own', 'closed-small', 'open-small']);
    const narrowed = await ctx.call('PATCH', `/v3/app/worksheets/${deals.id}/views/${view.Temporary}`, { filter: condition('amount', 'lt', 100) });
    expect(narrowed.body.error_msg).toBe('');
    expect(await titles(who.temp.headers)).toEqual(['closed-small', 'open-small']);
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${deals.id}/views/${view.Temporary}`)).body.error_code).toBe(1);
    expect(await titles(who.temp.headers)).toEqual([]);
    expect((await ctx.call('GET', `${rows()}/${record['open-small']}`, undefined, who.temp.headers)).body.error_code).toBe(10007);
  });

  it('gives a custom key per-view reads: only the records of its views, through those views only', async () => {
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, false, Date.now());
    const set = await setKeyWorksheets(ctx.database.db, key.appKey, [`${deals.id}:read+edit@${view.Open},${view.Large}`]);
    expect(set.worksheets).toEqual([{ id: deals.id, read: true, add: false, edit: true, delete: false, views: [view.Open, view.Large] }]);
    const headers = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
    expect(await titles(headers)).toEqual(['closed-large', 'closed-large-own', 'open-small']);
    expect(await titles(headers, { viewId: view.Open })).toEqual(['open-small']);
    expect(await titles(headers, { viewId: view.Everything })).toBe(10005);
    expect((await ctx.call('PATCH', `${rows()}/${record['closed-small']}`, { fields: [{ id: 'amount', value: 1 }] }, headers)).body.error_code).toBe(10007);
    await expect(setKeyWorksheets(ctx.database.db, key.appKey, [`${deals.id}@nope`])).rejects.toMatchObject({ code: 10002, message: `worksheets: no view "nope" in the worksheet "${deals.id}"` });
    await expect(setKeyWorksheets(ctx.database.db, key.appKey, [`${deals.id}@`])).rejects.toMatchObject({ code: 10002 });
  });
});
