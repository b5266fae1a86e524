import { beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { giveRole, memberWithToken } from '../helpers/people.js';

/**
 * What roles show beyond records: applications hidden from their members' list
 * (`hideAppForMembers`), and custom pages (`pagePermissions`) with the charts on them.
 */

describeApi('roles: hidden applications and pages', (ctx) => {
  const who: Record<string, { id: string; headers: Record<string, string> }> = {};
  let pageId: string;
  let chartId: string;

  const role = (name: string, body: Record<string, unknown>, members: string[]) => giveRole(ctx, name, body, members.map((m) => who[m].id));

  beforeAll(async () => {
    for (const name of ['hidden', 'mixed', 'admin', 'paged']) who[name] = await memberWithToken(ctx, name);
    const items = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/items/batch', { items: [{ sectionId: '', type: 1, name: 'Board' }, { sectionId: '', type: 0, name: 'Sheet' }] });
    expect(items.body.error_msg).toBe('');
    pageId = items.body.data[0].id;
    const chart = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${items.body.data[1].id}/charts`, { name: 'On the board', reportType: 10, yaxisList: [{ controlId: 'record_count' }], pageId });
    expect(chart.body.error_msg).toBe('');
    chartId = chart.body.data.id;
    await role('Hidden readers', { permissionScope: 20, hideAppForMembers: true }, ['hidden', 'mixed']);
    await role('Listed readers', { permissionScope: 20 }, ['mixed']);
    await role('Hidden administrators', { permissionScope: 80, type: 100, hideAppForMembers: true }, ['admin']);
    await role('No pages', { permissionScope: 0, pagePermissions: [{ id: pageId, enable: false }] }, ['paged']);
  });

  const listed = async (headers: Record<string, string>) => {
    const apps = await ctx.call<{ apps: Array<{ appId: string }> }>('GET', '/v3/apps/list', undefined, { authorization: headers.authorization });
    expect(apps.body.error_msg).toBe('');
    return apps.body.data.apps.map((a) => a.appId).includes(ctx.setup.app.appId);
  };

  it('leaves an application out of the list of a member whose every role hides it, and keeps it reachable', async () => {
    expect(await listed(who.hidden.headers)).toBe(false);
    expect(await listed(who.mixed.headers)).toBe(true);
    expect(await listed(who.paged.headers)).toBe(true);
    // Hidden from the list, not closed: calls naming the application still work.
    expect((await ctx.call('GET', '/v3/app', undefined, who.hidden.headers)).body.error_code).toBe(1);
  });

  it('lists it for its administrators and its owner whatever the roles say', async () => {
    expect(await listed(who.admin.headers)).toBe(true);
    const { token } = await createToken(ctx.database.db, ctx.setup.owner.accountId, { scopes: 'all' }, Date.now());
    expect(await listed({ authorization: `Bearer ${token}` })).toBe(true);
  });

  it('hides a page and the charts on it from a member whose roles do not show it', async () => {
    expect((await ctx.call('GET', `/v3/app/custom-pages/${pageId}`, undefined, who.paged.headers)).body.error_code).toBe(10007);
    expect((await ctx.call('GET', `/v3/app/charts/${chartId}`, undefined, who.paged.headers)).body).toMatchObject({ error_code: 10007, error_msg: `chart "${chartId}" does not exist in this application` });
    expect((await ctx.call('GET', `/v3/app/charts/${chartId}/data`, undefined, who.paged.headers)).body.error_code).toBe(10007);
    expect((await ctx.call('GET', `/v3/app/charts/${chartId}`, undefined, who.hidden.headers)).body.error_code).toBe(1);
    expect((await ctx.call('GET', `/v3/app/custom-pages/${pageId}`, undefined, who.hidden.headers)).body.error_code).toBe(1);
  });
});
