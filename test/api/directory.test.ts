import { beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { newGuid } from '../../src/shared/ids.js';
import { describeApi } from '../helpers/api-harness.js';

/**
 * The user's own view and the lookups: /v3/orgs/list, /v3/users/me, /v3/apps/list, POST /v3/apps,
 * /v3/users/lookup and /v3/departments/lookup, with tokens and app keys, the organization named by
 * `orgId`, masking and department paths.
 */

describeApi('the user’s own view and lookups', (ctx) => {
  const db = () => ctx.database.db;
  const org = () => ctx.setup.organizationId;
  let otherOrg: string;
  const people: Record<string, { id: string; auth: Record<string, string> }> = {};
  let sales: string;
  let north: string;
  let east: string;

  async function person(name: string, fields: { email: string; mobile?: string; admin?: boolean; scopes?: string[] | 'all'; organizationIds?: string[] }) {
    const id = newGuid();
    await db().insertInto('accounts').values({ id, organization_id: org(), email: fields.email, fullname: name, mobile: fields.mobile ?? '', password_hash: null, status: 1, created_at: Date.now() }).execute();
    await db().insertInto('organization_members').values({ organization_id: org(), account_id: id, is_admin: fields.admin ? 1 : 0, status: 1, joined_at: Date.now() }).execute();
    const { token } = await createToken(db(), id, { scopes: fields.scopes ?? 'all', organizationIds: fields.organizationIds }, Date.now());
    people[name] = { id, auth: { authorization: `Bearer ${token}` } };
  }

  async function department(name: string, parent: string | null): Promise<string> {
    const id = newGuid();
    await db().insertInto('departments').values({ id, organization_id: org(), parent_id: parent, name, created_at: Date.now() }).execute();
    return id;
  }

  beforeAll(async () => {
    otherOrg = newGuid();
    await db().insertInto('organizations').values({ id: otherOrg, name: 'Other org', created_at: Date.now() }).execute();
    await person('Ada Admin', { email: `adalovelace-${ctx.engine}@example.com`, mobile: '13812345678', admin: true });
    await person('Bob', { email: `bo@x${ctx.engine}.org`, mobile: '+8613812345678' });
    await person('Cy', { email: `c@y${ctx.engine}.org`, mobile: '12345', scopes: ['org:list'] });
    await person('Dee', { email: `deedee-${ctx.engine}@example.com`, organizationIds: [otherOrg] });
    // Bob is a member of the other organization too, and administers it.
    await db().insertInto('organization_members').values({ organization_id: otherOrg, account_id: people.Bob.id, is_admin: 1, status: 1, joined_at: Date.now() + 1 }).execute();
    sales = await department('Sales', null);
    north = await department('North', sales);
    east = await department('East', north);
    await department('North', null);
    await db().insertInto('department_members').values([{ department_id: east, account_id: people.Bob.id, is_primary: 1 }, { department_id: sales, account_id: people.Bob.id, is_primary: 0 }]).execute();
  });

  it('lists the person’s organizations, and an app key’s one', async () => {
    const bob = await ctx.call<{ orgs: Array<{ orgId: string; name: string; isAdmin: boolean; isDefault: boolean }> }>('GET', '/v3/orgs/list', undefined, people.Bob.auth);
    expect(bob.body.data.orgs).toEqual([
      { orgId: org(), name: 'My organization', isAdmin: false, isDefault: true },
      { orgId: otherOrg, name: 'Other org', isAdmin: true, isDefault: false },
    ]);
    const dee = await ctx.call<{ orgs: unknown[] }>('GET', '/v3/orgs/list', undefined, people.Dee.auth);
    expect(dee.body.data.orgs).toEqual([]);
    const key = await ctx.call<{ orgs: Array<{ orgId: string }> }>('GET', '/v3/orgs/list');
    expect(key.body.data.orgs.map((o) => o.orgId)).toEqual([org()]);
  });

  it('answers users/me with the person’s own details, unmasked, and refuses app keys', async () => {
    const me = await ctx.call<Record<string, unknown>>('GET', '/v3/users/me', undefined, people.Bob.auth);
    expect(me.body.data).toMatchObject({ accountId: people.Bob.id, fullname: 'Bob', email: `bo@x${ctx.engine}.org`, mobile: '+8613812345678', orgId: org() });
    expect((me.body.data.departments as Array<{ id: string }>).map((d) => d.id)).toEqual([east, sales]);
    const inOther = await ctx.call<{ orgId: string; departments: unknown[] }>('GET', `/v3/users/me?orgId=${otherOrg}`, undefined, people.Bob.auth);
    expect([inOther.body.data.orgId, inOther.body.data.departments]).toEqual([otherOrg, []]);
    const key = await ctx.call('GET', '/v3/users/me');
    expect(key.body.error_code).toBe(10005);
    const cyOk = await ctx.call('GET', '/v3/users/me', undefined, people.Cy.auth);
    expect(cyOk.body.error_code).toBe(10005);
  });

  it('finds members by exact name, masking mobile and email, with department paths', async () => {
    const found = await ctx.call<{ users: Array<Record<string, unknown>> }>('GET', '/v3/users/lookup?name=Bob', undefined, people['Ada Admin'].auth);
    expect(found.body.error_msg).toBe('');
    expect(found.body.data.users).toEqual([
      {
        accountId: people.Bob.id,
        fullname: 'Bob',
        mobile: '+86*******5678',
        email: `b***@x${ctx.engine}.org`,
        departments: [
          { id: east, name: 'East', path: 'Sales/North', pathNodes: [{ id: sales, name: 'Sales' }, { id: north, name: 'North' }] },
          { id: sales, name: 'Sales', path: '', pathNodes: [] },
        ],
      },
    ]);
    const ada = await ctx.call<{ users: Array<{ email: string; mobile: string }> }>('GET', '/v3/users/lookup?name=Ada%20Admin');
    expect(ada.body.data.users).toEqual([expect.objectContaining({ email: `${`adalovelace-${ctx.engine}`.slice(0, -4)}****@example.com`, mobile: '138****5678' })]);
    const cy = await ctx.call<{ users: Array<{ email: string; mobile: string }> }>('GET', '/v3/users/lookup?name=Cy');
    expect(cy.body.data.users).toEqual([expect.objectContaining({ email: `c***@y${ctx.engine}.org`, mobile: '***45' })]);
    expect((await ctx.call<{ users: unknown[] }>('GET', '/v3/users/lookup?name=bob')).body.data.users).toEqual([]);
    expect((await ctx.call<{ users: unknown[] }>('GET', '/v3/users/lookup?name=Bo')).body.data.users).toEqual([]);
  });

  it('finds departments by exact name, with the path above them', async () => {
    const found = await ctx.call<{ departments: Array<{ id: string; path: string; pathNodes: unknown[] }> }>('GET', '/v3/departments/lookup?name=North', undefined, people.Bob.auth);
    expect(found.body.data.departments.map((d) => [d.path, d.pathNodes.length])).toEqual([
      ['', 0],
      ['Sales', 1],
    ]);
    expect(found.body.data.departments[1].id).toBe(north);
    const inOther = await ctx.call<{ departments: unknown[] }>('GET', `/v3/departments/lookup?name=North&org_id=${otherOrg}`, undefined, people.Bob.auth);
    expect(inOther.body.data.departments).toEqual([]);
  });

  it('refuses lookups without a name, outside the scopes and in organizations the credential does not reach', async () => {
    expect((await ctx.call('GET', '/v3/users/lookup')).body.error_code).toBe(10001);
    expect((await ctx.call('GET', '/v3/departments/lookup?name=')).body.error_code).toBe(10002);
    expect((await ctx.call('GET', '/v3/users/lookup?name=Bob', undefined, people.Cy.auth)).body.error_code).toBe(10005);
    expect((await ctx.call('GET', `/v3/users/lookup?name=Bob&orgId=${otherOrg}`, undefined, people['Ada Admin'].auth)).body.error_code).toBe(10106);
    expect((await ctx.call('GET', '/v3/departments/lookup?name=North', undefined, people.Dee.auth)).body.error_code).toBe(10106);
    expect((await ctx.call('GET', `/v3/users/lookup?name=Bob&orgId=${otherOrg}`)).body.error_code).toBe(10005);
    expect((await ctx.call('GET', `/v3/users/lookup?name=Bob&orgId=${newGuid()}`, undefined, people.Bob.auth)).body.error_code).toBe(10106);
  });

  it('creates applications in organizations the person administers, owned by them, and lists them', async () => {
    const made = await ctx.call<{ appId: string; organizationId: string; name: string; icon: string; color: string }>(
      'POST',
      '/v3/apps',
      { name: ' CRM ', icon: '0_lego', color: '#2196F3', desc: '<p>x</p>', navLayout: 'card', navColor: 'white', enableExternalPortal: 'true', remark: 'r' },
      people['Ada Admin'].auth,
    );
    expect(made.body.error_msg).toBe('');
    expect(made.body.data).toMatchObject({ organizationId: org(), name: 'CRM', icon: '0_lego', color: '#2196F3' });
    const appAuth = { ...people['Ada Admin'].auth, 'SVC-Appid': made.body.data.appId };
    expect((await ctx.call<{ description: string }>('GET', '/v3/app', undefined, appAuth)).body.data.description).toBe('<p>x</p>');
    const listed = await ctx.call<{ apps: Array<{ appId: string; isOwner: boolean }> }>('GET', '/v3/apps/list', undefined, people['Ada Admin'].auth);
    expect(listed.body.data.apps).toEqual([expect.objectContaining({ appId: made.body.data.appId, name: 'CRM', isOwner: true })]);
    // Bob administers the other organization: there with org_id in the body, or orgId in the query.
    const inOther = await ctx.call<{ organizationId: string }>('POST', '/v3/apps', { name: 'Other CRM', org_id: otherOrg }, people.Bob.auth);
    expect(inOther.body.data.organizationId).toBe(otherOrg);
    const byQuery = await ctx.call<{ organizationId: string }>('POST', `/v3/apps?orgId=${otherOrg}`, { name: 'Third' }, people.Bob.auth);
    expect(byQuery.body.data.organizationId).toBe(otherOrg);
    const bobs = await ctx.call<{ apps: Array<{ name: string }> }>('GET', `/v3/apps/list?orgId=${otherOrg}`, undefined, people.Bob.auth);
    expect(bobs.body.data.apps.map((a) => a.name)).toEqual(['Other CRM', 'Third']);
    expect((await ctx.call<{ apps: unknown[] }>('GET', '/v3/apps/list', undefined, people.Bob.auth)).body.data.apps).toEqual([]);
  });

  it('lists the applications a person holds a role in, and an app key’s own', async () => {
    const role = await ctx.call<{ id: string }>('POST', '/v3/app/roles', { name: 'Readers', permissionScope: 20 });
    await ctx.call('POST', `/v3/app/roles/${role.body.data.id}/members`, { departmentTreeIds: [sales] });
    const bobs = await ctx.call<{ apps: Array<{ appId: string; isOwner: boolean }> }>('GET', '/v3/apps/list', undefined, people.Bob.auth);
    expect(bobs.body.data.apps).toEqual([expect.objectContaining({ appId: ctx.setup.app.appId, isOwner: false })]);
    const key = await ctx.call<{ apps: Array<{ appId: string }> }>('GET', '/v3/apps/list');
    expect(key.body.data.apps.map((a) => a.appId)).toEqual([ctx.setup.app.appId]);
  });

  it('refuses creating applications to app keys, non-administrators, bad bodies and other organizations', async () => {
    expect((await ctx.call('POST', '/v3/apps', { name: 'Key app' })).body.error_code).toBe(10005);
    expect((await ctx.call('POST', '/v3/apps', { name: 'Bob app' }, people.Bob.auth)).body.error_code).toBe(10005);
    expect((await ctx.call('POST', '/v3/apps', { name: 'No scope' }, people.Cy.auth)).body.error_code).toBe(10005);
    expect((await ctx.call('POST', '/v3/apps', {}, people['Ada Admin'].auth)).body.error_code).toBe(10001);
    expect((await ctx.call('POST', '/v3/apps', { name: 'x', color: 'blue' }, people['Ada Admin'].auth)).body.error_code).toBe(10002);
    expect((await ctx.call('POST', '/v3/apps', { name: 'x', navLayout: 'sideways' }, people['Ada Admin'].auth)).body.error_code).toBe(10002);
    expect((await ctx.call('POST', '/v3/apps', { name: 'x', orgId: otherOrg }, people['Ada Admin'].auth)).body.error_code).toBe(10106);
    expect((await ctx.call('POST', `/v3/apps?orgId=${org()}`, { name: 'x', orgId: otherOrg }, people.Bob.auth)).body.error_code).toBe(10002);
    expect((await ctx.call('GET', '/v3/apps/list', undefined, people.Dee.auth)).body.error_code).toBe(10106);
  });
});
