import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { addKey, createAppWithKey } from '../../src/modules/setup/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';

interface Option {
  key: string;
  value: string;
  index: number;
  isDeleted?: boolean;
}
interface Field {
  id: string;
  name: string;
  alias: string;
  type: string;
  required: boolean;
  isTitle: boolean;
  isUnique: boolean;
  options: Option[];
  config: Record<string, unknown>;
}
interface Worksheet {
  worksheetId: string;
  name: string;
  alias: string;
  remark: string;
  fields: Field[];
  views: unknown[];
}
interface RecordOut {
  id: string;
  fields: Array<{ id: string; value: unknown; type: string; controlName: string }>;
}

async function create(ctx: ApiContext, body: Record<string, unknown>, headers?: Record<string, string>): Promise<string> {
  const response = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', body, headers);
  expect(response.body.error_msg).toBe('');
  expect(response.body.error_code).toBe(1);
  return response.body.data.worksheetId;
}

async function read(ctx: ApiContext, key: string): Promise<Worksheet> {
  const response = await ctx.call<Worksheet>('GET', `/v3/app/worksheets/${key}`);
  expect(response.body.error_code).toBe(1);
  return response.body.data;
}

function field(worksheet: Worksheet, name: string): Field {
  const found = worksheet.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name} in ${worksheet.fields.map((f) => f.name).join(', ')}`);
  return found;
}

function titles(worksheet: Worksheet): string[] {
  return worksheet.fields.filter((f) => f.isTitle).map((f) => f.name);
}

async function change(ctx: ApiContext, id: string, body: Record<string, unknown>) {
  return ctx.call('POST', `/v3/app/worksheets/${id}/structure`, body);
}

async function addRecord(ctx: ApiContext, worksheetId: string, fields: Record<string, unknown>): Promise<string> {
  const response = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${worksheetId}/rows`, {
    fields: Object.entries(fields).map(([id, value]) => ({ id, value })),
  });
  expect(response.body.error_msg).toBe('');
  return response.body.data.id;
}

/** A record's values by field name (controlName). */
async function readRecord(ctx: ApiContext, worksheetId: string, rowId: string): Promise<Record<string, unknown>> {
  const response = await ctx.call<RecordOut>('GET', `/v3/app/worksheets/${worksheetId}/rows/${rowId}`);
  expect(response.body.error_msg).toBe('');
  return Object.fromEntries(response.body.data.fields.map((f) => [f.controlName, f.value]));
}

async function listRecords(ctx: ApiContext, worksheetId: string) {
  const response = await ctx.call<{ rows: RecordOut[]; total: number }>('POST', `/v3/app/worksheets/${worksheetId}/rows/list`, { pageSize: 100, pageIndex: 1 });
  expect(response.body.error_msg).toBe('');
  return response.body.data;
}

function expectError(response: { status: number; body: { success: boolean; error_code: number; error_msg: string } }, code: number, mentions?: string) {
  expect(response.body.success, response.body.error_msg).toBe(false);
  expect(response.body.error_code, response.body.error_msg).toBe(code);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  if (mentions) expect(response.body.error_msg).toContain(mentions);
}

const SEED_FIELDS = [
  { name: 'Name', alias: 'name', type: '2', required: true, isTitle: true },
  { name: 'Amount', alias: 'amount', type: '6', required: false, isTitle: false, precision: 2 },
  {
    name: 'Stage',
    alias: 'stage',
    type: '11',
    required: false,
    isTitle: false,
    options: [
      { value: 'Lead', index: 1 },
      { value: 'Won', index: 2 },
    ],
    config: { isColorOptions: true },
  },
];

describeApi('worksheets: create, read and list', (ctx) => {
  it('creates a worksheet from the seed body and reads it back by id and by alias', async () => {
    const id = await create(ctx, { name: 'Deals', alias: 'deals', remark: 'All deals', sectionId: '', createDefaultView: true, fields: SEED_FIELDS });
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const byId = await ctx.call<Worksheet>('GET', `/v3/app/worksheets/${id}`);
    expect(byId.status).toBe(200);
    const worksheet = byId.body.data;
    expect(worksheet).toMatchObject({ worksheetId: id, name: 'Deals', alias: 'deals', remark: 'All deals' });
    // createDefaultView (the default) gives the worksheet an "All" table view.
    expect(worksheet.views).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'All', type: 0 }]);
    expect(worksheet.fields.map((f) => [f.name, f.alias, f.type, f.required, f.isTitle, f.isUnique])).toEqual([
      ['Name', 'name', '2', true, true, false],
      ['Amount', 'amount', '6', false, false, false],
      ['Stage', 'stage', '11', false, false, false],
    ]);
    for (const f of worksheet.fields) expect(f.id).toMatch(/^[0-9a-f]{24}$/);
    const stage = field(worksheet, 'Stage');
    expect(stage.options.map((o) => [o.value, o.index])).toEqual([['Lead', 1], ['Won', 2]]);
    for (const o of stage.options) expect(o.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(stage.config.isColorOptions).toBe(true);
    expect(field(worksheet, 'Amount').config.precision).toBe(2);

    expect((await ctx.call('GET', '/v3/app/worksheets/deals')).body).toEqual(byId.body);
  });

  it('accepts public type names and numeric codes and reads them back as codes', async () => {
    const id = await create(ctx, {
      name: 'Named types',
      fields: [
        { name: 'Subject', type: 'Text', isTitle: true },
        { name: 'Choice', type: 'Dropdown', options: [{ value: 'A', index: 1 }] },
        { name: 'Count', type: 6 },
        { name: 'Tick', type: 'checkbox' },
        { name: 'When', type: 'Date' },
      ],
    });
    const worksheet = await read(ctx, id);
    expect(worksheet.fields.map((f) => [f.name, f.type])).toEqual([
      ['Subject', '2'],
      ['Choice', '11'],
      ['Count', '6'],
      ['Tick', '36'],
      ['When', '15'],
    ]);
  });

  it('lists the worksheets as {id, name, remark}, filtered by ids, and as a markdown table', async () => {
    const first = await create(ctx, { name: 'Listed one', remark: 'r1' });
    const second = await create(ctx, { name: 'Listed two' });
    const all = await ctx.call<Array<{ id: string; name: string; remark: string }>>('POST', '/v3/app/worksheets/list', {});
    expect(all.status).toBe(200);
    expect(all.body.data).toContainEqual({ id: first, name: 'Listed one', remark: 'r1' });
    expect(all.body.data).toContainEqual({ id: second, name: 'Listed two', remark: '' });
    for (const row of all.body.data) expect(Object.keys(row).sort()).toEqual(['id', 'name', 'remark']);

    const filtered = await ctx.call<unknown[]>('POST', '/v3/app/worksheets/list', { worksheets: [second] });
    expect(filtered.body.data).toEqual([{ id: second, name: 'Listed two', remark: '' }]);

    const md = await ctx.call<string>('POST', '/v3/app/worksheets/list', { worksheets: [first, second], responseFormat: 'md' });
    expect(typeof md.body.data).toBe('string');
    const lines = md.body.data.split('\n');
    expect(lines[0]).toBe('id｜name｜remark');
    expect(lines).toContain(`${first}｜Listed one｜r1`);
    expect(lines).toContain(`${second}｜Listed two｜`);
  });

  it('reads the schema as markdown with the title marked', async () => {
    const id = await create(ctx, { name: 'Md sheet', fields: [{ name: 'Heading', alias: 'heading', type: 'Text', isTitle: true }] });
    const titleId = (await read(ctx, id)).fields[0].id;
    const md = await ctx.call<string>('GET', `/v3/app/worksheets/${id}?responseFormat=md`);
    expect(typeof md.body.data).toBe('string');
    expect(md.body.data).toContain(`${titleId}(isTitle)｜Heading｜heading｜2`);
    const viewId = (await ctx.call<Worksheet>('GET', `/v3/app/worksheets/${id}`)).body.data.views[0] as { id: string };
    expect(md.body.data).toContain(`## views\nid｜name｜type\n${viewId.id}｜All｜0`);
  });

  it('places the worksheet in the given section, or the first one when sectionId is empty', async () => {
    const sections = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/sections/batch', { sections: [{ name: 'Target' }] });
    const sectionId = sections.body.data[0].id;
    const placed = await create(ctx, { name: 'Placed', sectionId });
    const anywhere = await create(ctx, { name: 'Anywhere', sectionId: '' });
    const app = await ctx.call<{ sections: Array<{ id: string; items: Array<{ id: string; type: number; name: string }> }> }>('GET', '/v3/app');
    const target = app.body.data.sections.find((s) => s.id === sectionId)!;
    expect(target.items).toContainEqual({ id: placed, type: 0, name: 'Placed' });
    expect(app.body.data.sections[0].items).toContainEqual({ id: anywhere, type: 0, name: 'Anywhere' });

    const lost = await ctx.call('POST', '/v3/app/worksheets', { name: 'Lost', sectionId: 'ffffffffffffffffffffffff' });
    expectError(lost, 10007, 'sectionId');
  });

  it('moves a worksheet to another section with the structure change, and refuses an unknown one (10007)', async () => {
    const sections = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/sections/batch', { sections: [{ name: 'Moved here' }] });
    const sectionId = sections.body.data[0].id;
    const id = await create(ctx, { name: 'Mover' });
    expect((await change(ctx, id, { sectionId })).body.error_code).toBe(1);
    const app = await ctx.call<{ sections: Array<{ id: string; items: Array<{ id: string }> }> }>('GET', '/v3/app');
    expect(app.body.data.sections.find((s) => s.id === sectionId)!.items.map((i) => i.id)).toEqual([id]);
    expectError(await change(ctx, id, { sectionId: 'ffffffffffffffffffffffff' }), 10007, 'sectionId');
  });

  it('makes the first Text field the title when none is marked', async () => {
    const id = await create(ctx, { name: 'Implicit title', fields: [{ name: 'Qty', type: '6' }, { name: 'First text', type: '2' }, { name: 'Second text', type: '2' }] });
    expect(titles(await read(ctx, id))).toEqual(['First text']);
  });

  it('adds a "Title" Text field first when no field can be the title', async () => {
    const id = await create(ctx, { name: 'No text', fields: [{ name: 'Qty', type: 'Number' }] });
    const worksheet = await read(ctx, id);
    expect(worksheet.fields.map((f) => [f.name, f.type, f.isTitle])).toEqual([
      ['Title', '2', true],
      ['Qty', '6', false],
    ]);
    const empty = await read(ctx, await create(ctx, { name: 'No fields at all' }));
    expect(empty.fields.map((f) => [f.name, f.type, f.isTitle])).toEqual([['Title', '2', true]]);
  });

  it('lets an AutoNumber field be the title', async () => {
    const id = await create(ctx, { name: 'Numbered', fields: [{ name: 'No', type: '33', isTitle: true }, { name: 'Note', type: '2' }] });
    expect(titles(await read(ctx, id))).toEqual(['No']);
  });

  it('refuses two title fields and a title of a type other than Text or AutoNumber (10002)', async () => {
    const two = await ctx.call('POST', '/v3/app/worksheets', { name: 'Two titles', fields: [{ name: 'A', type: '2', isTitle: true }, { name: 'B', type: '2', isTitle: true }] });
    expectError(two, 10002, 'title');
    const number = await ctx.call('POST', '/v3/app/worksheets', { name: 'Number title', fields: [{ name: 'N', type: '6', isTitle: true }] });
    expectError(number, 10002, 'fields[0].isTitle');
  });

  it('refuses duplicate field names and aliases, and bad aliases (10002)', async () => {
    const names = await ctx.call('POST', '/v3/app/worksheets', { name: 'Dup names', fields: [{ name: 'Same', type: '2' }, { name: 'Same', type: '6' }] });
    expectError(names, 10002, '"Same"');
    const aliases = await ctx.call('POST', '/v3/app/worksheets', { name: 'Dup aliases', fields: [{ name: 'A', alias: 'same', type: '2' }, { name: 'B', alias: 'same', type: '6' }] });
    expectError(aliases, 10002, '"same"');
    for (const alias of ['1starts_with_digit', 'has-dash', 'has space', 'x'.repeat(65)]) {
      const bad = await ctx.call('POST', '/v3/app/worksheets', { name: 'Bad alias', fields: [{ name: 'A', alias, type: '2' }] });
      expectError(bad, 10002, 'fields[0].alias');
    }
  });

  it('refuses a bad worksheet alias (10002) and one another worksheet has (10006)', async () => {
    const bad = await ctx.call('POST', '/v3/app/worksheets', { name: 'Bad', alias: 'no-dashes' });
    expectError(bad, 10002, 'alias');
    await create(ctx, { name: 'Taken', alias: 'taken_alias' });
    const taken = await ctx.call('POST', '/v3/app/worksheets', { name: 'Taker', alias: 'taken_alias' });
    expectError(taken, 10006, 'taken_alias');
    expect(taken.status).toBe(409);
  });

  it('refuses unknown and planned types (10002) and a missing type or name (10001)', async () => {
    const unknown = await ctx.call('POST', '/v3/app/worksheets', { name: 'Unknown', fields: [{ name: 'X', type: 'Hologram' }] });
    expectError(unknown, 10002, 'fields[0].type');
    const unknownCode = await ctx.call('POST', '/v3/app/worksheets', { name: 'Unknown', fields: [{ name: 'X', type: '999' }] });
    expectError(unknownCode, 10002, 'fields[0].type');
    for (const planned of ['44', 'Role', '50']) {
      const response = await ctx.call('POST', '/v3/app/worksheets', { name: 'Planned', fields: [{ name: 'Later', type: planned }] });
      expectError(response, 10002, 'fields[0].type');
    }
    expectError(await ctx.call('POST', '/v3/app/worksheets', { name: 'No type', fields: [{ name: 'X' }] }), 10001, 'fields[0].type');
    expectError(await ctx.call('POST', '/v3/app/worksheets', { name: 'No name', fields: [{ type: '2' }] }), 10001, 'fields[0].name');
    expectError(await ctx.call('POST', '/v3/app/worksheets', { fields: [] }), 10001, 'name');
    const list = await ctx.call<Array<{ name: string }>>('POST', '/v3/app/worksheets/list', {});
    expect(list.body.data.map((w) => w.name)).not.toContain('Planned');
    expect(list.body.data.map((w) => w.name)).not.toContain('Unknown');
  });

  it('refuses more options than the cap with 100006', async () => {
    const options = Array.from({ length: 1001 }, (_, i) => ({ value: `Option ${i}`, index: i + 1 }));
    const response = await ctx.call('POST', '/v3/app/worksheets', { name: 'Too many', fields: [{ name: 'Pick', type: 'Dropdown', options }] });
    expectError(response, 100006, 'Pick');
    const atCap = await create(ctx, { name: 'At the cap', fields: [{ name: 'Pick', type: 'Dropdown', options: options.slice(0, 1000) }] });
    expect(field(await read(ctx, atCap), 'Pick').options).toHaveLength(1000);
  });

  it('answers an unknown worksheet with 430022 and HTTP 404 on every worksheet route', async () => {
    const missing = 'ffffffffffffffffffffffff';
    for (const [method, url, body] of [
      ['GET', `/v3/app/worksheets/${missing}`, undefined],
      ['GET', '/v3/app/worksheets/no_such_alias', undefined],
      ['POST', `/v3/app/worksheets/${missing}/structure`, { name: 'X' }],
      ['POST', `/v3/app/worksheets/${missing}`, { name: 'X' }],
      ['DELETE', `/v3/app/worksheets/${missing}`, undefined],
      ['POST', `/v3/app/worksheets/${missing}/rows`, { fields: [] }],
      ['POST', `/v3/app/worksheets/${missing}/rows/list`, {}],
    ] as const) {
      const response = await ctx.call(method, url, body);
      expect(response.status, url).toBe(404);
      expect(response.body, url).toMatchObject({ success: false, error_code: 430022, data: null });
    }
  });

  it("answers another application's worksheet with 430013 and leaves it alone", async () => {
    const other = await createAppWithKey(ctx.database.db, 'Other', Date.now());
    const headers = { 'SVC-Appkey': other.appKey, 'SVC-Sign': other.sign };
    const theirs = await create(ctx, { name: 'Theirs', alias: 'theirs', fields: [{ name: 'T', alias: 't', type: '2' }] }, headers);
    const rowId = (await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${theirs}/rows`, { fields: [{ id: 't', value: 'secret' }] }, headers)).body.data.id;

    for (const [method, url, body] of [
      ['GET', `/v3/app/worksheets/${theirs}`, undefined],
      ['POST', `/v3/app/worksheets/${theirs}/structure`, { name: 'Mine now' }],
      ['POST', `/v3/app/worksheets/${theirs}`, { removeFields: ['t'] }],
      ['DELETE', `/v3/app/worksheets/${theirs}`, undefined],
      ['GET', `/v3/app/worksheets/${theirs}/rows/${rowId}`, undefined],
      ['POST', `/v3/app/worksheets/${theirs}/rows/list`, {}],
    ] as const) {
      const response = await ctx.call(method, url, body);
      expect(response.status, url).toBe(404);
      expect(response.body, url).toMatchObject({ success: false, error_code: 430013, data: null });
    }
    const list = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/worksheets/list', { worksheets: [theirs] });
    expect(list.body.data).toEqual([]);
    // An alias is looked up within the caller's application only.
    expect((await ctx.call('GET', '/v3/app/worksheets/theirs')).body.error_code).toBe(430022);
    // The same alias is free in this application.
    await create(ctx, { name: 'Mine', alias: 'theirs' });

    const intact = await ctx.call<Worksheet>('GET', `/v3/app/worksheets/${theirs}`, undefined, headers);
    expect(intact.body.data.name).toBe('Theirs');
    expect(intact.body.data.fields.map((f) => f.alias)).toEqual(['t']);
  });

  it('refuses writes from a read-only key (10005)', async () => {
    const id = await create(ctx, { name: 'Guarded' });
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, true, Date.now());
    const headers = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
    expect((await ctx.call('GET', `/v3/app/worksheets/${id}`, undefined, headers)).status).toBe(200);
    for (const [method, url, body] of [
      ['POST', `/v3/app/worksheets/${id}/structure`, { name: 'Changed' }],
      ['POST', `/v3/app/worksheets/${id}`, { name: 'Changed' }],
      ['DELETE', `/v3/app/worksheets/${id}`, undefined],
    ] as const) {
      const response = await ctx.call(method, url, body, headers);
      expect(response.status, url).toBe(403);
      expect(response.body.error_code, url).toBe(10005);
    }
    expect((await read(ctx, id)).name).toBe('Guarded');
  });

  it('serves every worksheet route under /api/v3 as well', async () => {
    const created = await ctx.call<{ worksheetId: string }>('POST', '/api/v3/app/worksheets', { name: 'Api', alias: 'api_sheet' });
    expect(created.body.error_code).toBe(1);
    const id = created.body.data.worksheetId;
    const viaApi = await ctx.call('GET', `/api/v3/app/worksheets/${id}`);
    expect(viaApi.body).toEqual((await ctx.call('GET', `/v3/app/worksheets/${id}`)).body);
    const list = await ctx.call<Array<{ id: string }>>('POST', '/api/v3/app/worksheets/list', { worksheets: [id] });
    expect(list.body.data).toEqual([{ id, name: 'Api', remark: '' }]);
    expect((await ctx.call('POST', `/api/v3/app/worksheets/${id}/structure`, { remark: 'one' })).body.error_code).toBe(1);
    expect((await ctx.call('POST', `/api/v3/app/worksheets/${id}`, { name: 'Api renamed' })).body.error_code).toBe(1);
    expect(await read(ctx, id)).toMatchObject({ name: 'Api renamed', remark: 'one' });
    expect((await ctx.call('DELETE', `/api/v3/app/worksheets/${id}`)).body.error_code).toBe(1);
    expect((await ctx.call('GET', `/v3/app/worksheets/${id}`)).body.error_code).toBe(430022);
  });
});

describeApi('worksheets: structure changes', (ctx) => {
  it('removes a field named twice (by alias and by id) once', async () => {
    const id = await create(ctx, { name: 'Twice', fields: [{ name: 'Head', alias: 'head', type: '2' }, { name: 'Amount', alias: 'amount', type: '6' }] });
    const schema = await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${id}`);
    const amountId = schema.body.data.fields.find((f) => f.alias === 'amount')!.id;
    const removed = await change(ctx, id, { removeFields: ['amount', amountId, 'amount'] });
    expect(removed.body.error_msg).toBe('');
    const after = await ctx.call<{ fields: Array<{ alias: string }> }>('GET', `/v3/app/worksheets/${id}`);
    expect(after.body.data.fields.map((f) => f.alias)).toEqual(['head']);
  });

  it('renames, re-aliases and re-remarks the worksheet, also through the alias route', async () => {
    const id = await create(ctx, { name: 'Before', alias: 'before' });
    const response = await change(ctx, id, { name: 'After', alias: 'after', remark: 'changed' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, error_code: 1, data: null });
    expect(await read(ctx, 'after')).toMatchObject({ worksheetId: id, name: 'After', alias: 'after', remark: 'changed' });
    expect((await ctx.call('GET', '/v3/app/worksheets/before')).body.error_code).toBe(430022);

    const app = await ctx.call<{ sections: Array<{ items: Array<{ id: string; name: string }> }> }>('GET', '/v3/app');
    const item = app.body.data.sections.flatMap((s) => s.items).find((i) => i.id === id);
    expect(item?.name).toBe('After');

    expect((await ctx.call('POST', '/v3/app/worksheets/after', { name: 'Via alias route' })).body.error_code).toBe(1);
    expect((await read(ctx, id)).name).toBe('Via alias route');
  });

  it('refuses a worksheet alias another worksheet has (10006) and a bad one (10002)', async () => {
    await create(ctx, { name: 'Holder', alias: 'held' });
    const id = await create(ctx, { name: 'Wanter', alias: 'wanter' });
    expectError(await change(ctx, id, { alias: 'held' }), 10006, 'held');
    expectError(await change(ctx, id, { alias: '9lives' }), 10002, 'alias');
    expect((await read(ctx, id)).alias).toBe('wanter');
    expect((await change(ctx, id, { alias: 'wanter' })).body.error_code).toBe(1);
  });

  it('adds, edits and removes fields, addressed by id or alias', async () => {
    const id = await create(ctx, { name: 'Evolving', fields: SEED_FIELDS });
    const before = await read(ctx, id);
    const amountId = field(before, 'Amount').id;
    const response = await change(ctx, id, {
      addFields: [{ name: 'Email', alias: 'email', type: 'Email', required: true }],
      editFields: [{ id: 'name', name: 'Full name', required: false }],
      removeFields: [amountId],
    });
    expect(response.body.error_msg).toBe('');
    let after = await read(ctx, id);
    expect(after.fields.map((f) => [f.name, f.alias, f.type, f.required, f.isTitle])).toEqual([
      ['Full name', 'name', '2', false, true],
      ['Stage', 'stage', '11', false, false],
      ['Email', 'email', '5', true, false],
    ]);
    expect(field(after, 'Full name').id).toBe(field(before, 'Name').id);

    expect((await change(ctx, id, { removeFields: ['stage'] })).body.error_code).toBe(1);
    after = await read(ctx, id);
    expect(after.fields.map((f) => f.name)).toEqual(['Full name', 'Email']);
  });

  it('moves the title when another field is made the title', async () => {
    const id = await create(ctx, { name: 'Title moves', fields: [{ name: 'Old title', alias: 'old', type: '2', isTitle: true }, { name: 'New title', alias: 'new', type: '2' }] });
    expect((await change(ctx, id, { editFields: [{ id: 'new', isTitle: true }] })).body.error_code).toBe(1);
    expect(titles(await read(ctx, id))).toEqual(['New title']);

    expect((await change(ctx, id, { addFields: [{ name: 'Added title', type: 'Text', isTitle: true }] })).body.error_code).toBe(1);
    expect(titles(await read(ctx, id))).toEqual(['Added title']);
  });

  it('refuses a structure change that would leave no title or two titles (10002)', async () => {
    const id = await create(ctx, { name: 'Keeps title', fields: [{ name: 'Head', alias: 'head', type: '2', isTitle: true }, { name: 'Other', alias: 'other', type: '2' }] });
    expectError(await change(ctx, id, { removeFields: ['head'] }), 10002, 'title');
    expectError(await change(ctx, id, { editFields: [{ id: 'head', isTitle: false }] }), 10002, 'title');
    expectError(
      await change(ctx, id, { addFields: [{ name: 'T1', type: '2', isTitle: true }, { name: 'T2', type: '2', isTitle: true }] }),
      10002,
      'title',
    );
    expectError(await change(ctx, id, { editFields: [{ id: 'head', isTitle: true }, { id: 'other', isTitle: true }] }), 10002, 'title');
    const unchanged = await read(ctx, id);
    expect(unchanged.fields.map((f) => [f.name, f.isTitle])).toEqual([
      ['Head', true],
      ['Other', false],
    ]);

    // Removing the title while naming a new one is fine.
    expect((await change(ctx, id, { removeFields: ['head'], editFields: [{ id: 'other', isTitle: true }] })).body.error_code).toBe(1);
    expect(titles(await read(ctx, id))).toEqual(['Other']);
  });

  it('refuses a title of a type other than Text or AutoNumber on edit and add (10002)', async () => {
    const id = await create(ctx, { name: 'Title types', fields: [{ name: 'Head', type: '2', isTitle: true }, { name: 'Qty', alias: 'qty', type: '6' }] });
    expectError(await change(ctx, id, { editFields: [{ id: 'qty', isTitle: true }] }), 10002, 'editFields[0].isTitle');
    expectError(await change(ctx, id, { addFields: [{ name: 'When', type: 'Date', isTitle: true }] }), 10002, 'addFields[0].isTitle');
    expect(titles(await read(ctx, id))).toEqual(['Head']);
  });

  it('refuses duplicate names and aliases, bad aliases, unknown and planned types, unknown fields (10002)', async () => {
    const id = await create(ctx, { name: 'Strict', fields: [{ name: 'Head', alias: 'head', type: '2' }, { name: 'Body', alias: 'body', type: '2' }] });
    const before = await read(ctx, id);
    expectError(await change(ctx, id, { addFields: [{ name: 'Head', type: '2' }] }), 10002, '"Head"');
    expectError(await change(ctx, id, { addFields: [{ name: 'Fresh', alias: 'body', type: '2' }] }), 10002, '"body"');
    expectError(await change(ctx, id, { editFields: [{ id: 'body', name: 'Head' }] }), 10002, '"Head"');
    expectError(await change(ctx, id, { editFields: [{ id: 'body', alias: 'head' }] }), 10002, '"head"');
    expectError(await change(ctx, id, { editFields: [{ id: 'body', alias: 'bad alias' }] }), 10002, 'editFields[0].alias');
    expectError(await change(ctx, id, { addFields: [{ name: 'Odd', type: 'Hologram' }] }), 10002, 'addFields[0].type');
    expectError(await change(ctx, id, { addFields: [{ name: 'Later', type: 'Role' }] }), 10002, 'addFields[0].type');
    expectError(await change(ctx, id, { editFields: [{ id: 'nobody', name: 'X' }] }), 10002, 'nobody');
    expectError(await change(ctx, id, { removeFields: ['nobody'] }), 10002, 'nobody');
    expectError(await change(ctx, id, { editFields: [{ name: 'No id' }] }), 10001, 'editFields[0].id');
    expectError(await change(ctx, id, { editFields: [{ id: 'body', type: 'Number' }] }), 10002, 'editFields[0].type');
    expect(await read(ctx, id)).toEqual(before);
  });

  it('allows a type change between types that store values alike', async () => {
    const id = await create(ctx, { name: 'Retype', fields: [{ name: 'Head', type: '2' }, { name: 'Contact', alias: 'contact', type: 'Text' }] });
    const rowId = await addRecord(ctx, id, { contact: 'a@example.com' });
    expect((await change(ctx, id, { editFields: [{ id: 'contact', type: 'Email' }] })).body.error_code).toBe(1);
    expect(field(await read(ctx, id), 'Contact').type).toBe('5');
    expect((await readRecord(ctx, id, rowId)).Contact).toBe('a@example.com');
  });

  it('applies an addFields batch with one bad field not at all', async () => {
    const id = await create(ctx, { name: 'Atomic add', fields: [{ name: 'Head', alias: 'head', type: '2' }] });
    const rowId = await addRecord(ctx, id, { head: 'kept' });
    const response = await change(ctx, id, {
      name: 'Should not rename',
      addFields: [
        { name: 'Good one', type: 'Text' },
        { name: 'Good two', type: 'Number' },
        { name: 'Bad', type: 'NoSuchType' },
      ],
    });
    expectError(response, 10002, 'addFields[2].type');
    const worksheet = await read(ctx, id);
    expect(worksheet.name).toBe('Atomic add');
    expect(worksheet.fields.map((f) => f.name)).toEqual(['Head']);
    expect(await readRecord(ctx, id, rowId)).toEqual({ Head: 'kept' });
  });

  it('reads old records with a newly added field as empty', async () => {
    const id = await create(ctx, { name: 'Grows', fields: [{ name: 'Head', alias: 'head', type: '2' }] });
    const rowId = await addRecord(ctx, id, { head: 'old record' });
    const response = await change(ctx, id, {
      addFields: [
        { name: 'Note', alias: 'note', type: 'Text' },
        { name: 'Qty', alias: 'qty', type: 'Number' },
        { name: 'Pick', alias: 'pick', type: 'Dropdown', options: [{ value: 'A', index: 1 }] },
        { name: 'Done', alias: 'done', type: 'Checkbox' },
      ],
    });
    expect(response.body.error_msg).toBe('');
    const old = await readRecord(ctx, id, rowId);
    expect(old.Head).toBe('old record');
    expect(old.Note).toBe('');
    expect(old.Qty).toBeNull();
    expect(old.Pick).toEqual([]);
    expect(old).toHaveProperty('Done');
    expect(old.Done === false || old.Done === null).toBe(true);

    const newRow = await addRecord(ctx, id, { head: 'new record', note: 'written', qty: 3 });
    expect(await readRecord(ctx, id, newRow)).toMatchObject({ Head: 'new record', Note: 'written', Qty: '3' });
    expect((await listRecords(ctx, id)).total).toBe(2);
  });

  it('drops the values of a removed field; a new field of the same name starts empty', async () => {
    const id = await create(ctx, { name: 'Shrinks', fields: [{ name: 'Head', alias: 'head', type: '2' }, { name: 'Secret', alias: 'secret', type: '2' }] });
    const rowId = await addRecord(ctx, id, { head: 'visible', secret: 'hidden value' });
    expect((await change(ctx, id, { removeFields: ['secret'] })).body.error_code).toBe(1);
    expect(await readRecord(ctx, id, rowId)).toEqual({ Head: 'visible' });
    const listed = await listRecords(ctx, id);
    expect(listed.rows[0].fields.map((f) => f.controlName)).toEqual(['Head']);

    expect((await change(ctx, id, { addFields: [{ name: 'Secret', alias: 'secret', type: 'Text' }] })).body.error_code).toBe(1);
    expect(await readRecord(ctx, id, rowId)).toEqual({ Head: 'visible', Secret: '' });

    const writeRemoved = await ctx.call('POST', `/v3/app/worksheets/${id}/rows`, { fields: [{ id: field(await read(ctx, id), 'Head').id, value: 'x' }, { id: 'gone', value: 'y' }] });
    expect([10001, 10002]).toContain(writeRemoved.body.error_code);
  });

  it('removes a field that is unique and sorted by (its indexes go with it)', async () => {
    const id = await create(ctx, { name: 'Indexed', fields: [{ name: 'Head', alias: 'head', type: '2' }, { name: 'Code', alias: 'code', type: '2', isUnique: true }, { name: 'Qty', alias: 'qty', type: 'Number' }] });
    await addRecord(ctx, id, { head: 'x', code: 'B', qty: 2 });
    await addRecord(ctx, id, { head: 'y', code: 'A', qty: 1 });
    for (const sortField of ['code', 'qty']) {
      const sorted = await ctx.call<{ rows: RecordOut[] }>('POST', `/v3/app/worksheets/${id}/rows/list`, { pageSize: 10, pageIndex: 1, sorts: [{ field: sortField, isAsc: true }] });
      expect(sorted.body.data.rows.map((r) => r.fields.find((f) => f.controlName === 'Head')?.value)).toEqual(['y', 'x']);
    }
    const removed = await change(ctx, id, { removeFields: ['code', 'qty'] });
    expect(removed.body.error_msg).toBe('');
    expect((await listRecords(ctx, id)).rows.map((r) => r.fields.map((f) => f.controlName))).toEqual([['Head'], ['Head']]);
    // A new field of the same alias is free of the old unique index.
    expect((await change(ctx, id, { addFields: [{ name: 'Code', alias: 'code', type: 'Text' }] })).body.error_code).toBe(1);
    await addRecord(ctx, id, { head: 'z', code: 'same' });
    await addRecord(ctx, id, { head: 'w', code: 'same' });
  });

  it('keeps the keys of kept options when options are edited', async () => {
    const id = await create(ctx, {
      name: 'Options',
      fields: [
        { name: 'Head', alias: 'head', type: '2' },
        { name: 'Stage', alias: 'stage', type: 'Dropdown', options: [{ value: 'Lead', index: 1 }, { value: 'Won', index: 2 }, { value: 'Lost', index: 3 }] },
      ],
    });
    const [lead, won, lost] = field(await read(ctx, id), 'Stage').options;
    const lostRow = await addRecord(ctx, id, { head: 'r', stage: lost.key });

    const response = await change(ctx, id, {
      editFields: [{ id: 'stage', options: [{ key: lead.key, value: 'Prospect', index: 1 }, { value: 'Won', index: 2 }, { value: 'Paused', index: 3 }] }],
    });
    expect(response.body.error_msg).toBe('');
    const options = field(await read(ctx, id), 'Stage').options;
    const live = options.filter((o) => !o.isDeleted);
    expect(live.map((o) => [o.value, o.index])).toEqual([['Prospect', 1], ['Won', 2], ['Paused', 3]]);
    expect(live[0].key).toBe(lead.key);
    expect(live[1].key).toBe(won.key);
    expect([lead.key, won.key, lost.key]).not.toContain(live[2].key);
    // The dropped option stays, flagged, so that stored values still read as text.
    expect(options.find((o) => o.key === lost.key)).toMatchObject({ value: 'Lost', isDeleted: true });
    expect((await readRecord(ctx, id, lostRow)).Stage).toEqual([{ key: lost.key, value: 'Lost' }]);
    // A dropped option can no longer be chosen.
    const choose = await ctx.call('POST', `/v3/app/worksheets/${id}/rows`, { fields: [{ id: 'stage', value: lost.key }] });
    expectError(choose, 10002, 'Stage');

    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ value: `O${i}`, index: i }));
    expectError(await change(ctx, id, { editFields: [{ id: 'stage', options: tooMany }] }), 100006, 'Stage');
    expectError(await change(ctx, id, { editFields: [{ id: 'stage', options: [{ key: 'not-a-key', value: 'X' }] }] }), 10002, 'not-a-key');
  });

  it('makes a field unique when its values allow it, and refuses with 100005 naming the field when they do not', async () => {
    const id = await create(ctx, { name: 'Uniqueness', fields: [{ name: 'Head', alias: 'head', type: '2' }, { name: 'Code', alias: 'code', type: '2' }, { name: 'Tag', alias: 'tag', type: '2' }] });
    const first = await addRecord(ctx, id, { head: 'a', code: 'C-1', tag: 'same' });
    await addRecord(ctx, id, { head: 'b', code: 'C-2', tag: 'same' });
    await addRecord(ctx, id, { head: 'c' });
    await addRecord(ctx, id, { head: 'd' });

    const refused = await change(ctx, id, { editFields: [{ id: 'tag', isUnique: true }] });
    expectError(refused, 100005, 'Tag');
    expect(refused.status).toBe(409);
    expect(field(await read(ctx, id), 'Tag').isUnique).toBe(false);
    expect(await readRecord(ctx, id, first)).toEqual({ Head: 'a', Code: 'C-1', Tag: 'same' });

    // Empty values do not clash.
    expect((await change(ctx, id, { editFields: [{ id: 'code', isUnique: true }] })).body.error_code).toBe(1);
    expect(field(await read(ctx, id), 'Code').isUnique).toBe(true);
    const clash = await ctx.call('POST', `/v3/app/worksheets/${id}/rows`, { fields: [{ id: 'code', value: 'C-1' }] });
    expectError(clash, 100005, 'Code');

    expect((await change(ctx, id, { editFields: [{ id: 'code', isUnique: false }] })).body.error_code).toBe(1);
    expect(await addRecord(ctx, id, { code: 'C-1' })).toBeTruthy();
  });

  it('rolls back every part of a change whose DDL fails, and records still read', async () => {
    const id = await create(ctx, {
      name: 'All or nothing',
      fields: [{ name: 'Head', alias: 'head', type: '2' }, { name: 'Doomed', alias: 'doomed', type: '2' }, { name: 'Tag', alias: 'tag', type: '2' }],
    });
    const rowA = await addRecord(ctx, id, { head: 'a', doomed: 'still here', tag: 'dup' });
    await addRecord(ctx, id, { head: 'b', doomed: 'also here', tag: 'dup' });
    const before = await read(ctx, id);

    const response = await change(ctx, id, {
      name: 'Renamed?',
      removeFields: ['doomed'],
      editFields: [{ id: 'head', name: 'Heading' }, { id: 'tag', isUnique: true }],
      addFields: [{ name: 'Extra', alias: 'extra', type: 'Text' }],
    });
    expectError(response, 100005, 'Tag');

    expect(await read(ctx, id)).toEqual(before);
    expect(await readRecord(ctx, id, rowA)).toEqual({ Head: 'a', Doomed: 'still here', Tag: 'dup' });
    const listed = await listRecords(ctx, id);
    expect(listed.total).toBe(2);
    expect(listed.rows.map((r) => r.fields.length)).toEqual([3, 3]);
    // The worksheet still takes structure changes and records afterwards.
    expect((await change(ctx, id, { addFields: [{ name: 'Extra', alias: 'extra', type: 'Text' }] })).body.error_code).toBe(1);
    const rowC = await addRecord(ctx, id, { head: 'c', extra: 'works' });
    expect(await readRecord(ctx, id, rowC)).toMatchObject({ Head: 'c', Extra: 'works' });
  });
});

describeApi('worksheets: delete', (ctx) => {
  it('deletes a worksheet: its schema, records and navigation item are gone', async () => {
    const id = await create(ctx, { name: 'Short-lived', alias: 'short', fields: [{ name: 'Head', alias: 'head', type: '2' }] });
    const rowId = await addRecord(ctx, id, { head: 'gone soon' });
    const keep = await create(ctx, { name: 'Keeper' });

    const response = await ctx.call('DELETE', `/v3/app/worksheets/${id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, error_code: 1, data: null });

    for (const [method, url, body] of [
      ['GET', `/v3/app/worksheets/${id}`, undefined],
      ['GET', '/v3/app/worksheets/short', undefined],
      ['GET', `/v3/app/worksheets/${id}/rows/${rowId}`, undefined],
      ['POST', `/v3/app/worksheets/${id}/rows/list`, {}],
      ['POST', `/v3/app/worksheets/${id}/rows`, { fields: [{ id: 'head', value: 'x' }] }],
      ['DELETE', `/v3/app/worksheets/${id}`, undefined],
    ] as const) {
      const after = await ctx.call(method, url, body);
      expect(after.status, url).toBe(404);
      expect(after.body.error_code, url).toBe(430022);
    }

    const list = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/worksheets/list', {});
    expect(list.body.data.map((w) => w.id)).toEqual([keep]);
    const app = await ctx.call<{ sections: Array<{ items: Array<{ id: string }> }> }>('GET', '/v3/app');
    const itemIds = app.body.data.sections.flatMap((s) => s.items.map((i) => i.id));
    expect(itemIds).not.toContain(id);
    expect(itemIds).toContain(keep);

    const fields = await ctx.database.db.selectFrom('fields').select('id').where('worksheet_id', '=', id).execute();
    expect(fields).toEqual([]);
    await expect(sql`SELECT COUNT(*) FROM ${sql.table(`ws_${id}`)}`.execute(ctx.database.db)).rejects.toThrow();

    // Its alias is free again.
    await create(ctx, { name: 'Reborn', alias: 'short' });
  });
});

describeApi('editing a choice field without resending its options', (ctx) => {
  it('keeps the options and their keys', async () => {
    const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
      name: 'Choices kept',
      fields: [
        { name: 'Title', type: '2', isTitle: true },
        { name: 'S', alias: 's', type: '9', options: [{ value: 'A', index: 1 }, { value: 'B', index: 2 }] },
      ],
    });
    const id = created.body.data.worksheetId;
    const before = await ctx.call<{ fields: Array<{ alias: string; options: unknown[] }> }>('GET', `/v3/app/worksheets/${id}`);
    const edit = await ctx.call('POST', `/v3/app/worksheets/${id}`, { editFields: [{ id: 's', name: 'S2' }] });
    expect(edit.body).toMatchObject({ success: true });
    const after = await ctx.call<{ fields: Array<{ alias: string; name: string; options: unknown[] }> }>('GET', `/v3/app/worksheets/${id}`);
    const field = after.body.data.fields.find((f) => f.alias === 's')!;
    expect(field.name).toBe('S2');
    expect(field.options).toEqual(before.body.data.fields.find((f) => f.alias === 's')!.options);
  });
});

describeApi('addressing a worksheet by alias after its alias changes', (ctx) => {
  it('resolves the new alias at once and no longer the old one', async () => {
    const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
      name: 'Renamed',
      alias: 'before',
      fields: [{ name: 'Title', type: '2', isTitle: true }],
    });
    const id = created.body.data.worksheetId;
    expect((await ctx.call('POST', '/v3/app/worksheets/before/rows/list', {})).body.success).toBe(true);
    expect((await ctx.call('POST', `/v3/app/worksheets/${id}`, { alias: 'after' })).body.success).toBe(true);
    const old = await ctx.call('POST', '/v3/app/worksheets/before/rows/list', {});
    expect(old.body.error_code).toBe(430022);
    const renamed = await ctx.call<{ worksheetId: string }>('GET', '/v3/app/worksheets/after');
    expect(renamed.body.data.worksheetId).toBe(id);
  });
});
