import { beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { newGuid } from '../../src/shared/ids.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Roles held through the organization's structure: a department, a department tree (its
 * sub-departments' people too), a job and an organization role; and the subordinates' data scope,
 * which reaches the records owned by the people of the departments a person manages.
 */

describeApi('roles through departments, jobs and organization roles', (ctx) => {
  let sheet: Sheet;
  const people: Record<string, { id: string; headers: Record<string, string> }> = {};
  const db = () => ctx.database.db;

  async function person(name: string) {
    const id = newGuid();
    await db().insertInto('accounts').values({ id, organization_id: ctx.setup.organizationId, email: `${name}-${ctx.engine}@example.com`, fullname: name, password_hash: null, status: 1, created_at: Date.now() }).execute();
    await db().insertInto('organization_members').values({ organization_id: ctx.setup.organizationId, account_id: id, is_admin: 0, status: 1, joined_at: Date.now() }).execute();
    const { token } = await createToken(db(), id, { scopes: 'all' }, Date.now());
    people[name] = { id, headers: { authorization: `Bearer ${token}`, 'SVC-Appid': ctx.setup.app.appId } };
  }

  async function department(name: string, parent: string | null): Promise<string> {
    const id = newGuid();
    await db().insertInto('departments').values({ id, organization_id: ctx.setup.organizationId, parent_id: parent, name, created_at: Date.now() }).execute();
    return id;
  }

  async function roleFor(name: string, permissionScope: number, members: Record<string, string[]>): Promise<void> {
    const made = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name, permissionScope });
    expect(made.body.error_msg).toBe('');
    expect((await ctx.call('POST', `/v3/app/roles/${made.body.data.id}/members`, members)).body.error_msg).toBe('');
  }

  const total = async (name: string) => {
    const listed = await ctx.call<{ total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 1 }, people[name].headers);
    return listed.body.error_code === 1 ? listed.body.data.total : `error ${listed.body.error_code}`;
  };

  let sales: string;
  let north: string;

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Org sheet', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    for (const name of ['lead', 'rep', 'deep', 'engineer', 'auditor', 'outsider']) await person(name);
    sales = await department('Sales', null);
    north = await department('North', sales);
    await db().insertInto('department_members').values([{ department_id: sales, account_id: people.lead.id }, { department_id: sales, account_id: people.rep.id }, { department_id: north, account_id: people.deep.id }]).execute();
    await db().insertInto('department_managers').values({ department_id: sales, account_id: people.lead.id }).execute();
    const job = newGuid();
    await db().insertInto('jobs').values({ id: job, organization_id: ctx.setup.organizationId, name: 'Engineer', created_at: Date.now() }).execute();
    await db().insertInto('job_members').values({ job_id: job, account_id: people.engineer.id }).execute();
    const orgRole = newGuid();
    await db().insertInto('org_roles').values({ id: orgRole, organization_id: ctx.setup.organizationId, name: 'Auditors', created_at: Date.now() }).execute();
    await db().insertInto('org_role_members').values({ role_id: orgRole, account_id: people.auditor.id }).execute();
    await roleFor('Sales tree', 80, { departmentTreeIds: [sales] });
    await roleFor('Engineers', 20, { jobIds: [job] });
    await roleFor('Audit', 20, { orgRoleIds: [orgRole] });
  });

  it('gives a role to the people of a department tree, a job and an organization role, and to no one else', async () => {
    for (const name of ['lead', 'rep', 'deep']) {
      const made = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: name }] }, people[name].headers);
      expect(made.body.error_msg).toBe('');
    }
    expect([await total('lead'), await total('deep'), await total('engineer'), await total('auditor'), await total('outsider')]).toEqual([3, 3, 3, 3, 'error 10005']);
  });

  it('reaches the records of the people of the departments a person manages with the subordinates scope', async () => {
    const views = await ctx.call<{ views: Array<{ id: string }> }>('POST', `/v3/app/worksheets/${sheet.id}/views/batch`, { views: [{ name: 'All', viewType: 'table' }] });
    const viewId = views.body.data.views[0].id;
    const permission = (read: number) => ({ id: sheet.id, recordPermissionInViews: [{ viewId, read: true, edit: false, delete: false }], recordDataScope: { read, edit: 0, delete: 0 } });
    const scoped = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name: 'Managers', permissionScope: 0, worksheetPermissions: [permission(30)] });
    expect((await ctx.call('POST', `/v3/app/roles/${scoped.body.data.id}/members`, { userIds: [people.lead.id, people.rep.id] })).body.error_msg).toBe('');
    // lead also holds Sales tree (every record): take it away by removing the tree role's reach for this check.
    const roles = await ctx.call<{ roles: Array<{ id: string; name: string }> }>('GET', '/v3/app/roles');
    const tree = roles.body.data.roles.find((r) => r.name === 'Sales tree')!;
    expect((await ctx.call('DELETE', `/v3/app/roles/${tree.id}`)).body.error_msg).toBe('');
    // lead manages Sales (with North below): their own record, rep's and deep's; rep manages nothing: their own.
    expect([await total('lead'), await total('rep'), await total('deep')]).toEqual([3, 1, 'error 10005']);
  });
});

