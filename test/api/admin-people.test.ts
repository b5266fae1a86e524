import { beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { verifyPassword } from '../../src/modules/people/index.js';
import { describeApi, type ApiResponse } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * The admin API (`/admin/…`) called with personal access tokens: the organization's administrator
 * manages people, departments, jobs and roles; members who are not administrators, app keys and
 * callers without credentials are refused. Every refusal is asserted with its code and message.
 */

interface User {
  accountId: string;
  email: string;
  fullname: string;
  status: number;
  isAdmin: boolean;
  departments: Array<{ id: string; path: string; isPrimary: boolean }>;
  jobs: Array<{ id: string; name: string }>;
  orgRoles: Array<{ id: string; name: string }>;
}
interface Department {
  id: string;
  name: string;
  parentId: string | null;
  path: string;
  managers: string[];
  children: Department[];
}

describeApi('admin API: people and departments of the organization', (ctx) => {
  let admin: Record<string, string>;
  let sheet: Sheet;
  const bearer = async (accountId: string, scopes = ['admin:organization']) => ({ authorization: `Bearer ${(await createToken(ctx.database.db, accountId, { name: 'admin', scopes }, Date.now())).token}` });
  const call = <T>(method: string, url: string, body?: unknown, headers = admin) => ctx.call<T>(method, url, body, headers);
  const refused = (response: ApiResponse, code: number, message: string) => expect({ status: response.status, code: response.body.error_code, message: response.body.error_msg }).toEqual({ status: expect.any(Number), code, message });

  beforeAll(async () => {
    admin = await bearer(ctx.setup.owner.accountId);
    sheet = await makeSheet(ctx, 'People fields', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Owner', alias: 'owner', type: '26' },
      { name: 'Team', alias: 'team', type: '27' },
    ]);
  });

  it('refuses callers without credentials (10101), app keys and members who are not administrators (10005)', async () => {
    const none = await ctx.call('GET', '/admin/users', undefined, {});
    expect(none.status).toBe(401);
    expect(none.body.error_code).toBe(10101);
    const key = await ctx.call('GET', '/admin/users');
    expect(key.status).toBe(403);
    refused(key, 10005, 'only an administrator of the organization may use the admin API; app keys cannot');
    const created = await call<{ user: User }>('POST', '/admin/users', { email: 'member@example.org', fullname: 'Plain Member', password: 'long enough' });
    const member = await call('GET', '/admin/departments', undefined, await bearer(created.body.data.user.accountId));
    refused(member, 10005, 'only an administrator of the organization may use the admin API; app keys cannot');
    // An administrator's token needs our scope admin:organization (in "all"): a narrower one is refused.
    refused(await ctx.call('GET', '/admin/users', undefined, await bearer(ctx.setup.owner.accountId, ['user:me'])), 10005, 'this credential was not given the scope admin:organization');
    expect((await ctx.call('GET', '/v3/admin/users')).status).toBe(404);
  });

  it('creates people with a generated password shown once, refuses a taken email, a short password and a bad email', async () => {
    const created = await call<{ user: User; password: string }>('POST', '/admin/users', { email: 'Ada@Example.org', fullname: 'Ada Lovelace', mobile: '+44 20 7946 0000' });
    expect(created.body.error_msg).toBe('');
    const { user, password } = created.body.data;
    expect(user).toMatchObject({ email: 'ada@example.org', fullname: 'Ada Lovelace', status: 1, isAdmin: false, departments: [], jobs: [], orgRoles: [] });
    expect(password).toHaveLength(20);
    const stored = await ctx.database.db.selectFrom('accounts').select('password_hash').where('id', '=', user.accountId).executeTakeFirstOrThrow();
    expect(await verifyPassword(password, stored.password_hash ?? '')).toBe(true);
    refused(await call('POST', '/admin/users', { email: 'ADA@example.org', fullname: 'Again' }), 10006, 'email: a user with email "ada@example.org" exists already');
    const short = await call('POST', '/admin/users', { email: 'bob@example.org', fullname: 'Bob', password: 'secret7' });
    refused(short, 10002, 'password: must be at least 8 characters long');
    expect(short.body.error_msg).not.toContain('secret7');
    refused(await call('POST', '/admin/users', { email: 'not-an-email', fullname: 'Bob' }), 10002, 'email: "not-an-email" is not an email address');
    refused(await call('GET', '/admin/users/nobody'), 10007, 'no user "nobody" in this organization');
  });

  it('lists people a page at a time and by search', async () => {
    const page = await call<{ total: number; users: User[] }>('GET', '/admin/users?pageSize=1&pageIndex=1');
    expect(page.body.data.total).toBeGreaterThanOrEqual(3);
    expect(page.body.data.users).toHaveLength(1);
    const found = await call<{ total: number; users: User[] }>('GET', '/admin/users?search=lovel');
    expect(found.body.data.users.map((u) => u.email)).toEqual(['ada@example.org']);
  });

  it('builds the department tree with paths and managers, refusing a cycle, a foreign parent, a clash and deletions that would orphan', async () => {
    const ada = (await call<{ users: User[] }>('GET', '/admin/users?search=ada')).body.data.users[0]!;
    const sales = (await call<Department>('POST', '/admin/departments', { name: 'Sales', managers: ['ada@example.org'] })).body.data;
    expect(sales).toMatchObject({ name: 'Sales', parentId: null, path: 'Sales', managers: [ada.accountId] });
    const north = (await call<Department>('POST', '/admin/departments', { name: 'North', parentId: sales.id })).body.data;
    expect(north.path).toBe('Sales/North');
    refused(await call('PATCH', `/admin/departments/${sales.id}`, { parentId: north.id }), 10002, 'parentId: "Sales/North" is "Sales" or lies within it; a department cannot move under itself');
    refused(await call('POST', '/admin/departments', { name: 'X', parentId: 'elsewhere' }), 10002, 'parentId: no department "elsewhere" in this organization');
    refused(await call('POST', '/admin/departments', { name: 'North', parentId: sales.id }), 10006, 'name: a department "Sales/North" exists already');
    refused(await call('POST', '/admin/departments', { name: 'A/B' }), 10002, 'name: "A/B" contains "/", which separates the names of a department path');
    refused(await call('POST', '/admin/departments', { name: 'Y', managers: ['ghost@example.org'] }), 10002, 'managers: no member with email "ghost@example.org" in this organization');
    refused(await call('DELETE', `/admin/departments/${sales.id}`), 10002, '"Sales" has sub-departments ("Sales/North"); move or delete them first');

    const moved = await call<User>('PATCH', `/admin/users/${ada.accountId}`, { departments: [north.id] });
    expect(moved.body.error_msg).toBe('');
    expect(moved.body.data.departments).toEqual([{ id: north.id, name: 'North', path: 'Sales/North', isPrimary: true }]);
    refused(await call('DELETE', `/admin/departments/${north.id}`), 10002, '"Sales/North" has 1 member; move them to other departments first');
    refused(await call('PATCH', `/admin/users/${ada.accountId}`, { departments: ['nowhere'] }), 10002, 'departments: no department "nowhere" in this organization');

    const renamed = await call<Department>('PATCH', `/admin/departments/${north.id}`, { name: 'Northern', parentId: null });
    expect(renamed.body.error_msg).toBe('');
    expect(renamed.body.data).toMatchObject({ path: 'Northern', parentId: null });
    const tree = await call<Department[]>('GET', '/admin/departments');
    expect(tree.body.data.map((d) => d.path)).toEqual(['Sales', 'Northern']);
    await call('PATCH', `/admin/users/${ada.accountId}`, { departments: [] });
    expect((await call('DELETE', `/admin/departments/${north.id}`)).body.error_msg).toBe('');
    refused(await call('GET', `/admin/departments/${north.id}`), 10007, `no department "${north.id}" in this organization`);
  });

  it('manages jobs and organization roles and the people who hold them', async () => {
    const job = (await call<{ id: string; name: string }>('POST', '/admin/jobs', { name: 'Engineer' })).body.data;
    const role = (await call<{ id: string; name: string }>('POST', '/admin/org-roles', { name: 'Auditors' })).body.data;
    refused(await call('POST', '/admin/jobs', { name: 'Engineer' }), 10006, 'name: a job "Engineer" exists already');
    const ada = (await call<{ users: User[] }>('GET', '/admin/users?search=ada')).body.data.users[0]!;
    const held = await call<User>('PATCH', `/admin/users/${ada.accountId}`, { jobs: [job.id], orgRoles: [role.id] });
    expect([held.body.data.jobs, held.body.data.orgRoles]).toEqual([[job], [role]]);
    refused(await call('PATCH', `/admin/users/${ada.accountId}`, { orgRoles: ['nope'] }), 10002, 'orgRoles: no organization role "nope" in this organization');
    expect((await call<{ name: string }>('PATCH', `/admin/org-roles/${role.id}`, { name: 'Auditing' })).body.data.name).toBe('Auditing');
    expect((await call('DELETE', `/admin/jobs/${job.id}`)).body.error_msg).toBe('');
    expect((await call<User>('GET', `/admin/users/${ada.accountId}`)).body.data.jobs).toEqual([]);
    expect((await call<Array<{ name: string }>>('GET', '/admin/org-roles')).body.data.map((r) => r.name)).toEqual(['Auditing']);
    refused(await call('DELETE', `/admin/jobs/${job.id}`), 10007, `no job "${job.id}" in this organization`);
  });

  it('resets passwords, keeps the last administrator, and a disabled person cannot be newly written into a Member field', async () => {
    const ada = (await call<{ users: User[] }>('GET', '/admin/users?search=ada')).body.data.users[0]!;
    const reset = await call<{ password: string }>('POST', `/admin/users/${ada.accountId}/password`, {});
    expect(reset.body.data.password).toHaveLength(20);
    const chosen = await call<{ password?: string }>('POST', `/admin/users/${ada.accountId}/password`, { password: 'correct horse' });
    expect(chosen.body.data).toEqual({ accountId: ada.accountId });
    refused(await call('POST', `/admin/users/${ada.accountId}/password`, { password: 'short' }), 10002, 'password: must be at least 8 characters long');
    refused(await call('PATCH', `/admin/users/${ctx.setup.owner.accountId}`, { isAdmin: false }), 10002, '"owner@tabularium.local" is the last active administrator of the organization; make another person an administrator first');

    const write = (owner: string) => ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'T' }, { id: 'owner', value: [owner] }] });
    expect((await write(ada.accountId)).body.error_msg).toBe('');
    const disabled = await call<User>('PATCH', `/admin/users/${ada.accountId}`, { status: 2 });
    expect(disabled.body.data.status).toBe(2);
    refused(await write(ada.accountId), 10002, `fields[1] "Owner": no active member with accountId "${ada.accountId}" in this organization`);
    refused(await write('stranger'), 10002, 'fields[1] "Owner": no active member with accountId "stranger" in this organization');
    const team = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'team', value: ['gone'] }] });
    refused(team, 10002, 'fields[0] "Team": no department with id "gone" in this organization');
  });
});
