import { beforeAll, expect, it } from 'vitest';
import { createToken, revokeToken } from '../../src/modules/access-tokens/index.js';
import { newGuid } from '../../src/shared/ids.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, readRecord, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Personal access tokens over HTTP: `Authorization: Bearer pat_…` (or the bare token) with
 * `SVC-Appid`; the token acts as its person, narrowed to its scopes, applications and organizations.
 * The clock is the test's, so that expiry and the 5-second check cache are exact.
 */

const DAY = 86_400_000;
let now = Date.UTC(2026, 10, 25, 12, 0, 0);

describeApi(
  'personal access tokens',
  (ctx) => {
    let sheet: Sheet;
    let owner: string;
    const make = (input: Parameters<typeof createToken>[2], accountId = owner) => createToken(ctx.database.db, accountId, input, now);
    const as = (token: string, appId: string | null = ctx.setup.app.appId, bearer = true): Record<string, string> => ({
      authorization: bearer ? `Bearer ${token}` : token,
      ...(appId === null ? {} : { 'SVC-Appid': appId }),
    });
    const listRows = (headers: Record<string, string>) => ctx.call<{ total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 1 }, headers);

    async function person(email: string, organizationId = ctx.setup.organizationId): Promise<string> {
      const id = newGuid();
      await ctx.database.db.insertInto('accounts').values({ id, organization_id: organizationId, email, fullname: email.split('@')[0], password_hash: null, status: 1, created_at: now }).execute();
      await ctx.database.db.insertInto('organization_members').values({ organization_id: organizationId, account_id: id, is_admin: 0, status: 1, joined_at: now }).execute();
      return id;
    }

    beforeAll(async () => {
      owner = ctx.setup.owner.accountId;
      sheet = await makeSheet(ctx, 'Token orders', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    });

    it("reads and writes as its person: the owner's token administers the application, and writes are theirs", async () => {
      const { token, scopes, status, hint } = await make({ name: 'script', scopes: ['record:list', 'record:create', 'record:get'] });
      expect(token).toMatch(/^pat_[A-Za-z0-9_-]{32}$/);
      expect({ scopes, status, hint }).toEqual({ scopes: ['record:list', 'record:create', 'record:get'], status: 'active', hint: `${token.slice(0, 8)}…` });
      const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'By token' }] }, as(token));
      expect(created.body.error_msg).toBe('');
      const record = await readRecord(ctx, sheet, created.body.data.id);
      expect(record).toMatchObject({ _createdBy: { accountId: owner } });
      expect((await listRows(as(token, ctx.setup.app.appId, false))).body.data.total).toBe(1);
    });

    it('needs SVC-Appid on application calls (10001 naming it), and refuses unknown tokens (10101) and applications (10007)', async () => {
      const { token } = await make({ scopes: 'all' });
      const missing = await listRows(as(token, null));
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ error_code: 10001, error_msg: 'the SVC-Appid header is required with a personal access token: it names the application' });
      const unknown = await listRows(as('pat_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
      expect(unknown.status).toBe(401);
      expect(unknown.body).toMatchObject({ error_code: 10101, error_msg: 'unknown personal access token' });
      expect((await listRows(as(token, 'no-such-app'))).body).toMatchObject({ error_code: 10007, error_msg: 'application "no-such-app" (SVC-Appid) does not exist' });
    });

    it('refuses a call outside its scopes with 10005 naming the scope', async () => {
      const { token } = await make({ scopes: ['record:list'] });
      expect((await listRows(as(token))).body.error_msg).toBe('');
      const write = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'x' }] }, as(token));
      expect(write.status).toBe(403);
      expect(write.body).toMatchObject({ error_code: 10005, error_msg: 'this credential was not given the scope record:create' });
    });

    it('stops working when revoked (within the 5-second check) and when expired: 10105', async () => {
      const revoked = await make({ scopes: ['record:list'] });
      expect((await listRows(as(revoked.token))).body.error_msg).toBe('');
      await revokeToken(ctx.database.db, owner, revoked.id, now);
      now += 5_001;
      const afterRevoke = await listRows(as(revoked.token));
      expect(afterRevoke.status).toBe(401);
      expect(afterRevoke.body).toMatchObject({ error_code: 10105, error_msg: 'this personal access token was revoked' });

      const expiring = await make({ scopes: ['record:list'], expires: 1 });
      expect((await listRows(as(expiring.token))).body.error_msg).toBe('');
      now += DAY;
      expect((await listRows(as(expiring.token))).body).toMatchObject({ error_code: 10105, error_msg: `this personal access token expired at ${expiring.expiresAt}` });
    });

    it('refuses applications and organizations outside the token, or of another organization: 10106', async () => {
      const elsewhere = await make({ scopes: ['record:list'], appIds: ['another-app'] });
      expect((await listRows(as(elsewhere.token))).body).toMatchObject({ error_code: 10106, error_msg: `this personal access token is not for the application "${ctx.setup.app.appId}"` });
      const otherOrg = await make({ scopes: ['record:list'], organizationIds: ['another-org'] });
      expect((await listRows(as(otherOrg.token))).body.error_code).toBe(10106);
      const orgId = newGuid();
      await ctx.database.db.insertInto('organizations').values({ id: orgId, name: 'Other', created_at: now }).execute();
      const stranger = await make({ scopes: ['record:list'] }, await person(`stranger-${ctx.engine}@example.com`, orgId));
      expect((await listRows(as(stranger.token))).body).toMatchObject({ error_code: 10106, error_msg: 'the person of this token is not a member of the organization of this application' });
    });

    it('gives a member without a role no worksheet (10005), and refuses a disabled person (10105)', async () => {
      const memberId = await person(`member-${ctx.engine}@example.com`);
      const member = await make({ scopes: 'all' }, memberId);
      expect((await listRows(as(member.token))).body).toMatchObject({ error_code: 10005, error_msg: 'you may not read records of the worksheet "Token orders"' });
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { name: 'Renamed' }, as(member.token))).body).toMatchObject({ error_code: 10005, error_msg: 'only an administrator of the application may change its structure' });
      await ctx.database.db.updateTable('accounts').set({ status: 2 }).where('id', '=', memberId).execute();
      now += 5_001;
      expect((await listRows(as(member.token))).body).toMatchObject({ error_code: 10105, error_msg: 'the person of this token is disabled' });
    });
  },
  {},
  { clock: () => now },
);

describeApi('personal access tokens: making them', (ctx) => {
  const make = (input: Parameters<typeof createToken>[2]) => createToken(ctx.database.db, ctx.setup.owner.accountId, input, Date.now());
  const refusal = async (input: Parameters<typeof createToken>[2]) => make(input).then(() => ({ code: 0, message: 'made' }), (error: { code: number; message: string }) => ({ code: error.code, message: error.message }));

  it('takes scope names or their public codes, and refuses an unknown scope with 600311', async () => {
    expect((await make({ scopes: [30500, '30100', 'record:list'] })).scopes).toEqual(['record:list', 'record:get']);
    expect(await refusal({ scopes: ['record:list', 'record:everything'] })).toEqual({ code: 600311, message: 'scopes[1]: "record:everything" is not a scope (public names such as record:list, or their codes such as 30500)' });
    expect((await refusal({ scopes: [] })).code).toBe(600311);
  });

  it('expires never, after N days, or at a date; refuses a past date and a bad value (10002)', async () => {
    expect((await make({ scopes: 'all', expires: 'never' })).expiresAt).toBeNull();
    const inDays = await make({ scopes: 'all', expires: '30d' });
    expect(Date.parse(inDays.expiresAt!) - Date.parse(inDays.createdAt)).toBe(30 * DAY);
    expect((await make({ scopes: 'all', expires: '2999-01-31' })).expiresAt).toBe('2999-01-31T00:00:00.000Z');
    expect(await refusal({ scopes: 'all', expires: '2001-01-01' })).toEqual({ code: 10002, message: 'expires: the date is in the past' });
    expect(await refusal({ scopes: 'all', expires: 'soon' })).toEqual({ code: 10002, message: 'expires: "soon" is not "never", a number of days or a date' });
    expect((await refusal({ scopes: 'all', expires: 0.5 })).code).toBe(10002);
  });
});

