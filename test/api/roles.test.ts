import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { giveRole, memberWithToken } from '../helpers/people.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/** Roles over HTTP: managing them (app key), and what people holding them may then do (their tokens). */

interface RoleList {
  roles: Array<{ id: string; name: string; roleType: string; accounts: Array<{ accountId: string; fullname: string }>; departments: Array<{ id: string; name: string }> }>;
}

describeApi('roles: managing them', (ctx) => {
  let sheet: Sheet;
  let ada: string;

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Role sheet', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Salary', alias: 'salary', type: '6' },
    ]);
    ada = (await memberWithToken(ctx, 'Ada')).id;
  });

  it('creates a role, lists it with its members, shows its permissions, and deletes it', async () => {
    const views = await ctx.call<{ views: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/views/batch`, { views: [{ name: 'Mine', viewType: 'table' }] });
    const viewId = views.body.data.views[0].id;
    const created = await ctx.call<{ id: string; name: string; roleType: number }>('POST', '/v3/app/roles', {
      name: 'Clerks',
      description: 'Own records only',
      type: 0,
      permissionScope: '0',
      worksheetPermissions: [{ id: sheet.id, recordPermissionInViews: [{ viewId, read: true, edit: true, delete: false }], recordDataScope: { read: 20, edit: 20, delete: 0 }, recordActions: { add: true }, fieldPermissions: [{ id: 'salary', read: false }] }],
    });
    expect(created.body.error_msg).toBe('');
    expect(created.body.data).toMatchObject({ name: 'Clerks', roleType: 0, desc: 'Own records only', users: [] });
    const roleId = created.body.data.id;
    expect((await ctx.call('POST', `/v3/app/roles/${roleId}/members`, { userIds: [ada] })).body.error_msg).toBe('');
    const listed = await ctx.call<RoleList>('GET', '/v3/app/roles');
    expect(listed.body.data.roles).toEqual([expect.objectContaining({ id: roleId, name: 'Clerks', roleType: '0', accounts: [{ accountId: ada, fullname: 'Ada', avatar: '' }], departments: [] })]);
    const detail = await ctx.call<{ permissionScope: number; worksheetPermissions: Array<{ fieldPermissions: Array<{ id: string; read: boolean; edit: boolean }> }> }>('GET', `/v3/app/roles/${roleId}`);
    expect(detail.body.data.permissionScope).toBe(0);
    expect(detail.body.data.worksheetPermissions[0].fieldPermissions).toEqual([{ id: sheet.field.salary, read: false, edit: false, add: false, decrypt: false }]);
    expect((await ctx.call('DELETE', `/v3/app/roles/${roleId}/members`, { operatorId: 'x', accountIds: [ada] })).body.error_msg).toBe('');
    expect((await ctx.call<RoleList>('GET', '/v3/app/roles')).body.data.roles[0].accounts).toEqual([]);
    expect((await ctx.call('DELETE', `/v3/app/roles/${roleId}`)).body.error_msg).toBe('');
    expect((await ctx.call('GET', `/v3/app/roles/${roleId}`)).body).toMatchObject({ error_code: 10007, error_msg: `role_id: no role "${roleId}" in this application` });
  });

  it('refuses bad bodies naming the key: 10001 for what is missing, 10002 for wrong values and unknown references', async () => {
    const refused = async (body: unknown) => (await ctx.call('POST', '/v3/app/roles', body)).body;
    expect(await refused({ permissionScope: 80 })).toMatchObject({ error_code: 10001, error_msg: 'name is required' });
    expect(await refused({ name: 'x' })).toMatchObject({ error_code: 10001, error_msg: 'permissionScope is required (80, 60, 30, 20 or 0)' });
    expect(await refused({ name: 'x', permissionScope: 50 })).toMatchObject({ error_code: 10002, error_msg: 'permissionScope: 50 is not one of 80, 60, 30, 20, 0' });
    expect(await refused({ name: 'x', permissionScope: 0, worksheetPermissions: [{ id: 'nope' }] })).toMatchObject({ error_code: 10002, error_msg: 'worksheetPermissions[0].id: no worksheet "nope" in this application' });
    expect(await refused({ name: 'x', permissionScope: 0, worksheetPermissions: [{ id: sheet.id, recordDataScope: { read: 25 } }] })).toMatchObject({ error_code: 10002, error_msg: 'worksheetPermissions[0].recordDataScope.read: 25 is not one of 0, 20, 30, 100' });
    expect(await refused({ name: 'x', permissionScope: 0, worksheetPermissions: [{ id: sheet.id, fieldPermissions: [{ id: 'ghost', read: true }] }] })).toMatchObject({ error_code: 10002, error_msg: 'worksheetPermissions[0].fieldPermissions[0].id: no field "ghost" in the worksheet "Role sheet"' });
    const role = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name: 'Readers', permissionScope: 20 });
    expect((await ctx.call('POST', `/v3/app/roles/${role.body.data.id}/members`, { userIds: ['someone-else'] })).body).toMatchObject({ error_code: 10002, error_msg: 'userIds: no person "someone-else" in the organization' });
    expect((await ctx.call('POST', `/v3/app/roles/${role.body.data.id}/members`, {})).body.error_code).toBe(10001);
  });
});

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Amount', alias: 'amount', type: '6' },
  { name: 'Salary', alias: 'salary', type: '6' },
  { name: 'Status', alias: 'status', type: '2' },
  { name: 'Helper', alias: 'helper', type: '26' },
];

describeApi('roles: the permission matrix', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const who: Record<string, { id: string; headers: Record<string, string> }> = {};
  /** Record ids by title. */
  const record: Record<string, string> = {};

  const role = (name: string, body: Record<string, unknown>, members: string[]) => giveRole(ctx, name, body, members.map((m) => who[m].id));

  async function create(title: string, as: string | null, extra: unknown[] = [], amount = 10): Promise<void> {
    const made = await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: title }, { id: 'amount', value: amount }, { id: 'salary', value: 5000 }, { id: 'status', value: 'new' }, ...extra] }, as ? who[as].headers : undefined);
    expect(made.body.error_msg).toBe('');
    record[title] = made.body.data.id;
  }

  /** Custom page ids by name. */
  const page: Record<string, string> = {};

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Matrix', FIELDS);
    for (const name of ['all', 'editOwn', 'joined', 'reader', 'fine', 'viewer', 'nobody']) who[name] = await memberWithToken(ctx, name);
    const big = { type: 'condition', field: 'amount', operator: 'ge', value: 100 };
    const views = await ctx.call<{ views: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/views/batch`, { views: [{ name: 'Work', viewType: 'table' }, { name: 'Big', viewType: 'table', filter: big }] });
    const [viewId, bigView] = views.body.data.views.map((v) => v.id);
    const pages = await ctx.call<Array<{ id: string; name: string }>>('POST', '/v3/app/items/batch', { items: [{ sectionId: '', type: 1, name: 'Dashboard' }, { sectionId: '', type: 1, name: 'Secret' }] });
    for (const made of pages.body.data) page[made.name] = made.id;
    const fineDataScope = { recordDataScope: { read: 20, edit: 20, delete: 0 }, recordActions: { add: true }, fieldPermissions: [{ id: 'salary', read: false }, { id: 'status', read: true, edit: false }] };
    await role('Everything', { permissionScope: 80 }, ['all']);
    await role('Edit own', { permissionScope: 60 }, ['editOwn']);
    await role('Joined', { permissionScope: 30 }, ['joined']);
    await role('Readers', { permissionScope: 20 }, ['reader']);
    const pagePermissions = [{ id: page.Dashboard, enable: true }, { id: page.Secret, enable: false }];
    await role('Fine', { permissionScope: 0, worksheetPermissions: [{ id: sheet.id, recordPermissionInViews: [{ viewId, read: true, edit: true, delete: true }], ...fineDataScope }], pagePermissions }, ['fine']);
    // Every record, but only those the view "Big" shows (amount ≥ 100): read and edit, not delete.
    await role('Through a view', { permissionScope: 0, worksheetPermissions: [{ id: sheet.id, recordPermissionInViews: [{ viewId: bigView, read: true, edit: true, delete: false }], recordDataScope: { read: 100, edit: 100, delete: 100 } }] }, ['viewer']);
    await create('admin-1', null);
    await create('admin-helped', null, [{ id: 'helper', value: [who.joined.id] }]);
    await create('editOwn-1', 'editOwn');
    await create('joined-1', 'joined');
    await create('big-1', null, [], 100);
    const fine = await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'fine-1' }, { id: 'amount', value: 10 }] }, who.fine.headers);
    expect(fine.body.error_msg).toBe('');
    record['fine-1'] = fine.body.data.id;
  });

  const titles = async (as: string) => {
    const listed = await ctx.call<{ rows: Array<{ fields: Array<{ id: string; value: unknown }> }>; total: number }>('POST', `${rows()}/list`, { pageSize: 50, sorts: [{ field: 'title', isAsc: true }] }, who[as].headers);
    if (listed.body.error_code !== 1) return { error: listed.body.error_code };
    return { titles: listed.body.data.rows.map((r) => r.fields.find((f) => f.id === sheet.field.title)?.value), total: listed.body.data.total, fields: listed.body.data.rows[0]?.fields.map((f) => f.id) ?? [] };
  };

  it('lists exactly the rows and fields each role reaches', async () => {
    const everyTitle = ['admin-1', 'admin-helped', 'big-1', 'editOwn-1', 'fine-1', 'joined-1'];
    const allFields = ['title', 'amount', 'salary', 'status', 'helper'].map((a) => sheet.field[a]);
    expect(await titles('all')).toEqual({ titles: everyTitle, total: 6, fields: allFields });
    expect(await titles('editOwn')).toEqual({ titles: everyTitle, total: 6, fields: allFields });
    expect(await titles('joined')).toEqual({ titles: ['admin-helped', 'joined-1'], total: 2, fields: allFields });
    expect(await titles('reader')).toEqual({ titles: everyTitle, total: 6, fields: allFields });
    expect(await titles('fine')).toEqual({ titles: ['fine-1'], total: 1, fields: ['title', 'amount', 'status', 'helper'].map((a) => sheet.field[a]) });
    expect(await titles('viewer')).toEqual({ titles: ['big-1'], total: 1, fields: allFields });
    expect(await titles('nobody')).toEqual({ error: 10005 });
  });

  it('gets a record in reach, and answers 10007 for one out of reach', async () => {
    const get = async (as: string, title: string) => (await ctx.call('GET', `${rows()}/${record[title]}`, undefined, who[as].headers)).body.error_code;
    expect([await get('joined', 'admin-helped'), await get('joined', 'admin-1'), await get('fine', 'fine-1'), await get('fine', 'admin-1'), await get('reader', 'admin-1')]).toEqual([1, 10007, 1, 10007, 1]);
    expect([await get('viewer', 'big-1'), await get('viewer', 'admin-1')]).toEqual([1, 10007]);
  });

  it('updates only records the edit scope reaches, and only fields the caller may write', async () => {
    const update = async (as: string, title: string, fields: unknown[]) => (await ctx.call('PATCH', `${rows()}/${record[title]}`, { fields }, who[as].headers)).body;
    expect((await update('editOwn', 'editOwn-1', [{ id: 'amount', value: 11 }])).error_code).toBe(1);
    expect(await update('editOwn', 'admin-1', [{ id: 'amount', value: 11 }])).toMatchObject({ error_code: 10005, error_msg: `you may not edit the record "${record['admin-1']}"` });
    expect((await update('reader', 'admin-1', [{ id: 'amount', value: 11 }])).error_code).toBe(10005);
    expect(await update('fine', 'fine-1', [{ id: 'status', value: 'done' }])).toMatchObject({ error_code: 430014, error_msg: 'you may not write the field "Status"' });
    expect((await update('fine', 'fine-1', [{ id: 'salary', value: 1 }])).error_code).toBe(430014);
    expect((await update('fine', 'admin-1', [{ id: 'amount', value: 1 }])).error_code).toBe(10007);
    expect((await update('all', 'admin-1', [{ id: 'amount', value: 12 }])).error_code).toBe(1);
    expect((await update('viewer', 'big-1', [{ id: 'status', value: 'seen' }])).error_code).toBe(1);
    expect((await update('viewer', 'admin-1', [{ id: 'status', value: 'seen' }])).error_code).toBe(10007);
    const batch = await ctx.call<{ successfulRowIds: string[]; failedRowIds: string[] }>('PATCH', `${rows()}/batch`, { rowIds: [record['editOwn-1'], record['admin-1']], fields: [{ id: 'amount', value: 13 }] }, who.editOwn.headers);
    expect(batch.body.data).toEqual({ successfulRowIds: [record['editOwn-1']], failedRowIds: [record['admin-1']] });
  });

  it('refuses filtering, sorting and asking for a hidden field (430014), and keeps it out of search and pivots', async () => {
    const list = (body: unknown) => ctx.call('POST', `${rows()}/list`, body, who.fine.headers);
    expect((await list({ filter: { type: 'condition', field: 'salary', operator: 'gt', value: 1 } })).body).toMatchObject({ error_code: 430014, error_msg: 'filter.field: you may not see the field "Salary"' });
    expect((await list({ sorts: [{ field: 'salary', isAsc: true }] })).body).toMatchObject({ error_code: 430014, error_msg: 'sorts[0].field: you may not see the field "Salary"' });
    expect((await list({ fields: ['title', 'salary'] })).body).toMatchObject({ error_code: 430014, error_msg: 'fields[1]: you may not see the field "Salary"' });
    const pivot = await ctx.call('POST', `${rows()}/pivot`, { values: [{ field: 'salary', aggregation: 'SUM' }] }, who.fine.headers);
    expect(pivot.body).toMatchObject({ error_code: 430014, error_msg: 'values[0].field: you may not see the field "Salary"' });
    const counted = await ctx.call<{ pivot: Array<{ values: Record<string, number> }> }>('POST', `${rows()}/pivot`, { values: [{ field: 'record_count' }] }, who.joined.headers);
    expect(counted.body.data.pivot[0].values.record_count).toBe(2);
  });

  it('adds and deletes as the role allows', async () => {
    const add = await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'r' }] }, who.reader.headers);
    expect(add.body).toMatchObject({ error_code: 10005, error_msg: 'you may not add records to the worksheet "Matrix"' });
    expect((await ctx.call('DELETE', `${rows()}/${record['fine-1']}`, undefined, who.fine.headers)).body).toMatchObject({ error_code: 10005, error_msg: 'you may not delete records of the worksheet "Matrix"' });
    expect((await ctx.call('DELETE', `${rows()}/${record['admin-1']}`, undefined, who.editOwn.headers)).body.error_code).toBe(10005);
    expect((await ctx.call('DELETE', `${rows()}/${record['big-1']}`, undefined, who.viewer.headers)).body).toMatchObject({ error_code: 10005, error_msg: 'you may not delete records of the worksheet "Matrix"' });
    expect((await ctx.call('DELETE', `${rows()}/${record['editOwn-1']}`, undefined, who.editOwn.headers)).body.error_code).toBe(1);
    expect((await ctx.call('POST', `${rows()}/${record['editOwn-1']}/restore`, undefined, who.editOwn.headers)).body.error_code).toBe(1);
  });

  it('shows custom pages as the roles enable them: scope-0 roles their enabled pages, wider roles every page', async () => {
    const sees = async (as: string) => {
      const got = await Promise.all(['Dashboard', 'Secret'].map(async (name) => (await ctx.call('GET', `/v3/app/custom-pages/${page[name]}`, undefined, who[as].headers)).body.error_code));
      const app = await ctx.call<{ sections: Array<{ items: Array<{ name: string }> }> }>('GET', '/v3/app', undefined, who[as].headers);
      return { got, navigation: app.body.data.sections.flatMap((s) => s.items.map((i) => i.name)) };
    };
    expect(await sees('all')).toEqual({ got: [1, 1], navigation: ['Matrix', 'Dashboard', 'Secret'] });
    expect(await sees('reader')).toEqual({ got: [1, 1], navigation: ['Matrix', 'Dashboard', 'Secret'] });
    expect(await sees('fine')).toEqual({ got: [1, 10007], navigation: ['Matrix', 'Dashboard'] });
    expect(await sees('viewer')).toEqual({ got: [10007, 10007], navigation: ['Matrix'] });
    expect(await sees('nobody')).toEqual({ got: [10007, 10007], navigation: [] });
    const secret = await ctx.call('GET', `/v3/app/custom-pages/${page.Secret}`, undefined, who.fine.headers);
    expect(secret.body.error_msg).toBe(`custom page "${page.Secret}" does not exist in this application`);
  });

  it('changes structure only as an administrator', async () => {
    expect((await ctx.call('POST', '/v3/app/roles', { name: 'Mine', permissionScope: 80 }, who.all.headers)).body).toMatchObject({ error_code: 10005, error_msg: 'only an administrator of the application may change its structure' });
    await role('Admins', { permissionScope: 80, type: 100 }, ['nobody']);
    expect((await ctx.call('POST', '/v3/app/roles', { name: 'By an administrator', permissionScope: 20 }, who.nobody.headers)).body.error_code).toBe(1);
  });
});
