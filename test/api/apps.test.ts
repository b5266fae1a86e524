import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { addKey, createAppWithKey } from '../../src/modules/setup/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import type { WireApp, WireSection } from '../helpers/app-shapes.js';

async function getApp(ctx: ApiContext, headers?: Record<string, string>): Promise<WireApp> {
  const response = await ctx.call<WireApp>('GET', '/v3/app', undefined, headers);
  expect(response.body.error_code).toBe(1);
  return response.body.data;
}

function findSection(sections: WireSection[], id: string): WireSection | undefined {
  for (const section of sections) {
    if (section.id === id) return section;
    const inner = findSection(section.childSections, id);
    if (inner) return inner;
  }
  return undefined;
}

async function addSections(ctx: ApiContext, sections: Array<{ name: string; parentId?: string }>, headers?: Record<string, string>) {
  const response = await ctx.call<Array<{ id: string; name: string }>>('POST', '/v3/app/sections/batch', { sections }, headers);
  expect(response.body.error_code).toBe(1);
  return response.body.data;
}

/** A second application with its own key; its headers authenticate as that app. */
async function otherApp(ctx: ApiContext, name: string) {
  const created = await createAppWithKey(ctx.database.db, name, Date.now());
  return { appId: created.appId, headers: { 'SVC-Appkey': created.appKey, 'SVC-Sign': created.sign } };
}

async function tableExists(ctx: ApiContext, table: string): Promise<boolean> {
  try {
    await sql`SELECT COUNT(*) FROM ${sql.table(table)}`.execute(ctx.database.db);
    return true;
  } catch {
    return false;
  }
}

describeApi('applications: GET/POST/DELETE /v3/app', (ctx) => {
  it('reads the application of the key with its first section', async () => {
    const response = await ctx.call<WireApp>('GET', '/v3/app');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, error_code: 1, error_msg: '' });
    const app = response.body.data;
    expect(app.appId).toBe(ctx.setup.app.appId);
    expect(app.organizationId).toBe(ctx.setup.organizationId);
    expect(typeof app.name).toBe('string');
    expect(app.name.length).toBeGreaterThan(0);
    expect(app).toHaveProperty('description');
    expect(app).toHaveProperty('icon');
    expect(app).toHaveProperty('color');
    expect(app.sections.length).toBeGreaterThanOrEqual(1);
    for (const section of app.sections) {
      expect(Object.keys(section).sort()).toEqual(['childSections', 'id', 'items', 'name']);
    }
  });

  it('changes name, description, icon and color, and keeps what is not sent', async () => {
    const change = { name: 'Sales desk', description: 'Leads and deals', icon: 'sys_1_1_user', color: '#2196F3' };
    const update = await ctx.call('POST', '/v3/app', change);
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ success: true, error_code: 1, data: null });
    expect(await getApp(ctx)).toMatchObject(change);

    expect((await ctx.call('POST', '/v3/app', { color: '#abc' })).body.error_code).toBe(1);
    expect(await getApp(ctx)).toMatchObject({ ...change, color: '#abc' });
  });

  it('trims the name and refuses an empty one (10002) and a color that is not hex (10002)', async () => {
    await ctx.call('POST', '/v3/app', { name: '  Trimmed  ' });
    expect((await getApp(ctx)).name).toBe('Trimmed');

    for (const bad of [{ name: '' }, { name: '   ' }, { color: 'blue' }, { name: 'x'.repeat(101) }]) {
      const response = await ctx.call('POST', '/v3/app', bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body.error_code, JSON.stringify(bad)).toBe(10002);
      expect(response.body.error_msg).toMatch(Object.keys(bad)[0]);
    }
    expect((await getApp(ctx)).name).toBe('Trimmed');
  });

  it('refuses changes from a read-only key (10005)', async () => {
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, true, Date.now());
    const headers = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
    const before = await getApp(ctx);
    for (const [method, url, body] of [
      ['POST', '/v3/app', { name: 'Hijacked' }],
      ['DELETE', '/v3/app', undefined],
      ['POST', '/v3/app/sections/batch', { sections: [{ name: 'S' }] }],
      ['POST', '/v3/app/items/batch', { items: [{ type: 1, name: 'P' }] }],
    ] as const) {
      const response = await ctx.call(method, url, body, headers);
      expect(response.status, url).toBe(403);
      expect(response.body.error_code, url).toBe(10005);
    }
    expect(await getApp(ctx)).toEqual(before);
  });

  it('serves the same application under /api/v3', async () => {
    const v3 = await ctx.call('GET', '/v3/app');
    const api = await ctx.call('GET', '/api/v3/app');
    expect(api.status).toBe(200);
    expect(api.body).toEqual(v3.body);
    expect((await ctx.call('POST', '/api/v3/app', { description: 'via api' })).body.error_code).toBe(1);
    expect((await getApp(ctx)).description).toBe('via api');
  });

  it('deletes the application with its worksheets, rows, sections, pages and keys', async () => {
    const other = await otherApp(ctx, 'Doomed');
    const [section] = await addSections(ctx, [{ name: 'Main' }], other.headers);
    const items = await ctx.call<Array<{ id: string; type: number }>>(
      'POST',
      '/v3/app/items/batch',
      { items: [{ sectionId: section.id, type: 0, name: 'Sheet' }, { sectionId: section.id, type: 1, name: 'Page' }] },
      other.headers,
    );
    expect(items.body.error_code).toBe(1);
    const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Orders', fields: [{ name: 'No', alias: 'no', type: 'Text' }] }, other.headers);
    const worksheetId = created.body.data.worksheetId;
    const row = await ctx.call('POST', `/v3/app/worksheets/${worksheetId}/rows`, { fields: [{ id: 'no', value: 'A-1' }] }, other.headers);
    expect(row.body.error_code).toBe(1);
    const worksheetIds = [worksheetId, items.body.data[0].id];
    for (const id of worksheetIds) expect(await tableExists(ctx, `ws_${id}`)).toBe(true);
    const firstAppBefore = await getApp(ctx);

    const deleted = await ctx.call('DELETE', '/v3/app', undefined, other.headers);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, error_code: 1, data: null });

    const after = await ctx.call('GET', '/v3/app', undefined, other.headers);
    expect(after.status).toBe(401);
    expect(after.body.error_code).toBe(10101);
    expect((await ctx.call('POST', '/v3/app/worksheets/list', {}, other.headers)).body.error_code).toBe(10101);

    const db = ctx.database.db;
    for (const table of ['apps', 'app_keys', 'sections', 'items', 'custom_pages', 'worksheets'] as const) {
      const column = table === 'apps' ? 'id' : 'app_id';
      const rows = await db.selectFrom(table).select(sql<number>`COUNT(*)`.as('n')).where(column, '=', other.appId).executeTakeFirstOrThrow();
      expect(Number(rows.n), table).toBe(0);
    }
    const fields = await db.selectFrom('fields').select('id').where('worksheet_id', 'in', worksheetIds).execute();
    expect(fields).toEqual([]);
    for (const id of worksheetIds) expect(await tableExists(ctx, `ws_${id}`)).toBe(false);

    // The first application is untouched and its key still works.
    expect(await getApp(ctx)).toEqual(firstAppBefore);
    const sameWorksheet = await ctx.call('GET', `/v3/app/worksheets/${worksheetId}`);
    expect(sameWorksheet.body.error_code).toBe(430022);
  });
});

describeApi('applications: sections and items', (ctx) => {
  it('puts new top-level sections first, in the order sent', async () => {
    const before = await getApp(ctx);
    const created = await addSections(ctx, [{ name: 'Sales' }, { name: '  Support  ' }]);
    expect(created.map((s) => s.name)).toEqual(['Sales', 'Support']);
    for (const section of created) expect(section.id).toMatch(/^[0-9a-f]{24}$/);
    const after = await getApp(ctx);
    expect(after.sections.map((s) => s.id)).toEqual([...created.map((s) => s.id), ...before.sections.map((s) => s.id)]);
    expect(after.sections[0]).toEqual({ id: created[0].id, name: 'Sales', items: [], childSections: [] });

    const newer = await addSections(ctx, [{ name: 'Newest' }]);
    expect((await getApp(ctx)).sections[0].id).toBe(newer[0].id);
  });

  it('puts a child section under its parent, nested to any depth', async () => {
    const [parent] = await addSections(ctx, [{ name: 'Parent' }]);
    const [child, second] = await addSections(ctx, [{ name: 'Child', parentId: parent.id }, { name: 'Second child', parentId: parent.id }]);
    const [grandchild] = await addSections(ctx, [{ name: 'Grandchild', parentId: child.id }]);
    const app = await getApp(ctx);
    expect(app.sections.some((s) => s.id === child.id)).toBe(false);
    const parentNode = findSection(app.sections, parent.id)!;
    expect(parentNode.childSections.map((s) => s.name)).toEqual(['Child', 'Second child']);
    expect(parentNode.childSections[1].id).toBe(second.id);
    expect(parentNode.childSections[0].childSections).toEqual([{ id: grandchild.id, name: 'Grandchild', items: [], childSections: [] }]);
  });

  it('refuses an unknown parentId with 10007 and creates none of the batch', async () => {
    const before = await getApp(ctx);
    const response = await ctx.call('POST', '/v3/app/sections/batch', { sections: [{ name: 'Fine' }, { name: 'Orphan', parentId: 'ffffffffffffffffffffffff' }] });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error_code: 10007, data: null });
    expect(response.body.error_msg).toContain('sections[1].parentId');
    expect(await getApp(ctx)).toEqual(before);
  });

  it('refuses a section of another application as parent or item place with 10007', async () => {
    const other = await otherApp(ctx, 'Neighbour');
    const [foreign] = await addSections(ctx, [{ name: 'Theirs' }], other.headers);
    const response = await ctx.call('POST', '/v3/app/sections/batch', { sections: [{ name: 'Mine', parentId: foreign.id }] });
    expect(response.body.error_code).toBe(10007);
    const item = await ctx.call('POST', '/v3/app/items/batch', { items: [{ sectionId: foreign.id, type: 1, name: 'Mine' }] });
    expect(item.body.error_code).toBe(10007);
    const worksheet = await ctx.call('POST', '/v3/app/worksheets', { name: 'Mine', sectionId: foreign.id });
    expect(worksheet.body.error_code).toBe(10007);
    expect(findSection((await getApp(ctx, other.headers)).sections, foreign.id)!.items).toEqual([]);
  });

  it('names a missing or empty sections list (10001) and an empty name', async () => {
    expect((await ctx.call('POST', '/v3/app/sections/batch', {})).body.error_code).toBe(10001);
    const empty = await ctx.call('POST', '/v3/app/sections/batch', { sections: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error_msg).toContain('sections');
    const noName = await ctx.call('POST', '/v3/app/sections/batch', { sections: [{ name: '   ' }] });
    expect(noName.status).toBe(400);
    expect(noName.body.error_msg).toContain('sections[0].name');
  });

  it('creates a worksheet item with a "Title" field and a custom page item, shown under their section', async () => {
    const [section] = await addSections(ctx, [{ name: 'Items here' }]);
    const response = await ctx.call<Array<{ id: string; type: number; name: string; sectionId: string }>>('POST', '/v3/app/items/batch', {
      items: [
        { sectionId: section.id, type: 0, name: 'Customers' },
        { sectionId: section.id, type: 1, name: 'Dashboard' },
      ],
    });
    expect(response.status).toBe(200);
    const [sheet, page] = response.body.data;
    expect(sheet).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 0, name: 'Customers', sectionId: section.id });
    expect(page).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), type: 1, name: 'Dashboard', sectionId: section.id });

    const node = findSection((await getApp(ctx)).sections, section.id)!;
    expect(node.items).toEqual([
      { id: sheet.id, type: 0, name: 'Customers' },
      { id: page.id, type: 1, name: 'Dashboard' },
    ]);

    const worksheet = await ctx.call<{ worksheetId: string; name: string; fields: Array<Record<string, unknown>> }>('GET', `/v3/app/worksheets/${sheet.id}`);
    expect(worksheet.body.data.worksheetId).toBe(sheet.id);
    expect(worksheet.body.data.name).toBe('Customers');
    expect(worksheet.body.data.fields).toHaveLength(1);
    expect(worksheet.body.data.fields[0]).toMatchObject({ name: 'Title', type: '2', isTitle: true });

    const list = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/worksheets/list', {});
    expect(list.body.data.map((w) => w.id)).toContain(sheet.id);
    expect(list.body.data.map((w) => w.id)).not.toContain(page.id);

    const row = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: worksheet.body.data.fields[0].id, value: 'ACME' }] });
    expect(row.body.error_code).toBe(1);
  });

  it('puts items into a child section and, without sectionId, into the first section', async () => {
    const [parent] = await addSections(ctx, [{ name: 'Outer' }]);
    const [child] = await addSections(ctx, [{ name: 'Inner', parentId: parent.id }]);
    const response = await ctx.call<Array<{ id: string; sectionId: string }>>('POST', '/v3/app/items/batch', {
      items: [{ sectionId: child.id, type: 1, name: 'Nested page' }, { type: 1, name: 'Anywhere' }],
    });
    expect(response.body.error_code).toBe(1);
    const app = await getApp(ctx);
    expect(findSection(app.sections, child.id)!.items).toEqual([{ id: response.body.data[0].id, type: 1, name: 'Nested page' }]);
    expect(response.body.data[1].sectionId).toBe(app.sections[0].id);
    expect(app.sections[0].items.map((i) => i.id)).toContain(response.body.data[1].id);
  });

  it('refuses an unknown sectionId with 10007 and creates nothing of the batch', async () => {
    const [section] = await addSections(ctx, [{ name: 'Valid' }]);
    const app = await getApp(ctx);
    const worksheets = await ctx.call('POST', '/v3/app/worksheets/list', {});
    const response = await ctx.call('POST', '/v3/app/items/batch', {
      items: [
        { sectionId: section.id, type: 0, name: 'First worksheet' },
        { sectionId: section.id, type: 1, name: 'First page' },
        { sectionId: 'ffffffffffffffffffffffff', type: 0, name: 'Lost' },
      ],
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error_code: 10007, data: null });
    expect(response.body.error_msg).toContain('items[2].sectionId');
    expect(await getApp(ctx)).toEqual(app);
    expect((await ctx.call('POST', '/v3/app/worksheets/list', {})).body).toEqual(worksheets.body);
    const pages = await ctx.database.db.selectFrom('custom_pages').select('name').where('name', '=', 'First page').execute();
    expect(pages).toEqual([]);
  });

  it('refuses an item type other than 0 and 1 (10002) and a missing name (10001)', async () => {
    const badType = await ctx.call('POST', '/v3/app/items/batch', { items: [{ type: 2, name: 'X' }] });
    expect(badType.status).toBe(400);
    expect(badType.body.error_msg).toContain('type');
    const noName = await ctx.call('POST', '/v3/app/items/batch', { items: [{ type: 0 }] });
    expect(noName.body.error_code).toBe(10001);
    expect(noName.body.error_msg).toContain('name');
  });

  it('serves sections and items under /api/v3 as well', async () => {
    const sections = await ctx.call<Array<{ id: string }>>('POST', '/api/v3/app/sections/batch', { sections: [{ name: 'Via api' }] });
    expect(sections.body.error_code).toBe(1);
    const items = await ctx.call<Array<{ id: string }>>('POST', '/api/v3/app/items/batch', { items: [{ sectionId: sections.body.data[0].id, type: 0, name: 'Api sheet' }] });
    expect(items.body.error_code).toBe(1);
    const node = findSection((await getApp(ctx)).sections, sections.body.data[0].id)!;
    expect(node.items).toEqual([{ id: items.body.data[0].id, type: 0, name: 'Api sheet' }]);
  });
});
