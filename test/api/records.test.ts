import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey } from '../../src/modules/setup/index.js';
import { rowTableName } from '../../src/modules/worksheets/worksheet-schema.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, valueOf, type Sheet, type WireRecord, RECORD_TEST_FIELDS } from '../helpers/record-fixtures.js';

/** Single-record endpoints: create, get, PATCH, DELETE, their error codes, and one real HTTP round trip. */

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const API_USER = { accountId: 'user-api', fullname: 'API' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeApi('records: create, get, update, delete', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const create = (fields: unknown[]) => ctx.call<{ id: string }>('POST', rows(), { fields, triggerWorkflow: false });
  const get = (id: string) => ctx.call<WireRecord>('GET', `${rows()}/${id}`);
  const patch = (id: string, fields: unknown[]) => ctx.call<{ id: string }>('PATCH', `${rows()}/${id}`, { fields });

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Orders', RECORD_TEST_FIELDS);
  });

  it('creates a record by alias and reads it back in the documented shape', async () => {
    const created = await create([
      { id: 'title', value: 'First' },
      { id: 'amount', value: 12.5 },
    ]);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, error_code: 1, error_msg: '' });
    expect(Object.keys(created.body.data)).toEqual(['id']);
    const id = created.body.data.id;
    expect(id).toMatch(/^\S{16,}$/);

    const read = await get(id);
    expect(read.status).toBe(200);
    const record = read.body.data;
    expect(record.id).toBe(id);
    expect(record.fields.map((f) => f.id)).toEqual([sheet.field.title, sheet.field.code, sheet.field.amount, sheet.field.notes, sheet.field.seq]);
    expect(record.fields[0]).toEqual({ id: sheet.field.title, value: 'First', type: '2', controlName: 'Title' });
    expect(record.fields[2]).toEqual({ id: sheet.field.amount, value: '12.5', type: '6', controlName: 'Amount' });
    expect(record.fields[4]).toMatchObject({ type: '33', controlName: 'Seq' });
    expect(record._createdBy).toEqual(API_USER);
    expect(record._owner).toEqual(API_USER);
    expect(record._updatedBy).toEqual(API_USER);
    expect(record._createdAt).toMatch(ISO_UTC_MS);
    expect(record._updatedAt).toBe(record._createdAt);
    expect(Math.abs(Date.parse(record._createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('accepts field ids as well as aliases', async () => {
    const created = await create([
      { id: sheet.field.title, value: 'By id' },
      { id: sheet.field.notes, value: 'noted' },
    ]);
    expect(created.body.error_code).toBe(1);
    const record = (await get(created.body.data.id)).body.data;
    expect(valueOf(record, sheet.field.title)).toBe('By id');
    expect(valueOf(record, sheet.field.notes)).toBe('noted');
  });

  it('gives time-ordered, distinct record ids', async () => {
    const first = (await create([{ id: 'title', value: 'a' }])).body.data.id;
    await sleep(2);
    const second = (await create([{ id: 'title', value: 'b' }])).body.data.id;
    expect(second).not.toBe(first);
    expect(second > first).toBe(true);
  });

  it('answers an unknown record with 10007 and HTTP 404', async () => {
    const read = await get('no-such-record');
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ success: false, error_code: 10007, data: null });
    expect(read.body.error_msg).toContain('no-such-record');
  });

  it('answers an unknown worksheet with an error, not a crash', async () => {
    const read = await ctx.call('POST', '/v3/app/worksheets/no-such-sheet/rows', { fields: [{ id: 'title', value: 'x' }] });
    expect(read.status).toBe(404);
    expect(read.body.success).toBe(false);
    expect(read.body.error_msg).toContain('no-such-sheet');
  });

  it('PATCH changes only the sent fields and returns {id}', async () => {
    const id = (await create([
      { id: 'title', value: 'Keep me' },
      { id: 'code', value: 'P-1' },
      { id: 'amount', value: 3 },
      { id: 'notes', value: 'old note' },
    ])).body.data.id;
    const before = (await get(id)).body.data;
    await sleep(5);
    const updated = await patch(id, [{ id: 'notes', value: 'new note' }]);
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ id });
    const after = (await get(id)).body.data;
    expect(valueOf(after, sheet.field.notes)).toBe('new note');
    expect(valueOf(after, sheet.field.title)).toBe('Keep me');
    expect(valueOf(after, sheet.field.code)).toBe('P-1');
    expect(valueOf(after, sheet.field.amount)).toBe('3');
    expect(valueOf(after, sheet.field.seq)).toBe(valueOf(before, sheet.field.seq));
    expect(after._createdAt).toBe(before._createdAt);
    expect(after._updatedAt).toMatch(ISO_UTC_MS);
    expect(Date.parse(after._updatedAt)).toBeGreaterThan(Date.parse(before._updatedAt));
    expect(after._updatedBy).toEqual(API_USER);
  });

  it('PATCH can clear an optional field', async () => {
    const id = (await create([{ id: 'title', value: 'Clear' }, { id: 'amount', value: 9 }])).body.data.id;
    expect((await patch(id, [{ id: 'amount', value: null }])).body.error_code).toBe(1);
    expect(valueOf((await get(id)).body.data, sheet.field.amount)).toBeNull();
  });

  it('PATCH on an unknown or deleted record answers 10007', async () => {
    const unknown = await patch('no-such-record', [{ id: 'notes', value: 'x' }]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe(10007);
    const id = (await create([{ id: 'title', value: 'Gone' }])).body.data.id;
    expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_code).toBe(1);
    const deleted = await patch(id, [{ id: 'notes', value: 'x' }]);
    expect(deleted.status).toBe(404);
    expect(deleted.body.error_code).toBe(10007);
  });

  describe('required fields', () => {
    it('refuses a create without the required field with 430019 naming it', async () => {
      const response = await create([{ id: 'notes', value: 'no title' }]);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error_code: 430019, data: null });
      expect(response.body.error_msg).toContain('Title');
    });

    it('refuses a create with the required field empty with 430019', async () => {
      for (const value of ['', null]) {
        const response = await create([{ id: 'title', value }]);
        expect(response.body.error_code).toBe(430019);
        expect(response.body.error_msg).toContain('Title');
      }
    });

    it('refuses an update that empties the required field with 430019, and changes nothing', async () => {
      const id = (await create([{ id: 'title', value: 'Stays' }])).body.data.id;
      const response = await patch(id, [{ id: 'title', value: '' }, { id: 'notes', value: 'should not land' }]);
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(430019);
      expect(response.body.error_msg).toContain('Title');
      const record = (await get(id)).body.data;
      expect(valueOf(record, sheet.field.title)).toBe('Stays');
      expect(valueOf(record, sheet.field.notes)).toBe('');
    });

    it('lets an update leave the required field out', async () => {
      const id = (await create([{ id: 'title', value: 'Untouched' }])).body.data.id;
      expect((await patch(id, [{ id: 'notes', value: 'fine' }])).body.error_code).toBe(1);
    });
  });

  describe('unique fields', () => {
    it('refuses a second record with the same value with 100005 naming the field', async () => {
      expect((await create([{ id: 'title', value: 'U1' }, { id: 'code', value: 'U-CLASH' }])).body.error_code).toBe(1);
      const clash = await create([{ id: 'title', value: 'U2' }, { id: 'code', value: 'U-CLASH' }]);
      expect(clash.status).toBe(409);
      expect(clash.body).toMatchObject({ success: false, error_code: 100005, data: null });
      expect(clash.body.error_msg).toContain('Code');
    });

    it('refuses an update to a value another record holds with 100005', async () => {
      expect((await create([{ id: 'title', value: 'U3' }, { id: 'code', value: 'U-HELD' }])).body.error_code).toBe(1);
      const id = (await create([{ id: 'title', value: 'U4' }, { id: 'code', value: 'U-OTHER' }])).body.data.id;
      const clash = await patch(id, [{ id: 'code', value: 'U-HELD' }]);
      expect(clash.body.error_code).toBe(100005);
      expect(clash.body.error_msg).toContain('Code');
      expect(valueOf((await get(id)).body.data, sheet.field.code)).toBe('U-OTHER');
    });

    it('lets a record keep its own unique value on update', async () => {
      const id = (await create([{ id: 'title', value: 'U5' }, { id: 'code', value: 'U-MINE' }])).body.data.id;
      expect((await patch(id, [{ id: 'code', value: 'U-MINE' }, { id: 'notes', value: 'same code' }])).body.error_code).toBe(1);
    });

    it('does not count a value held only by a logically deleted record', async () => {
      const holder = (await create([{ id: 'title', value: 'U6' }, { id: 'code', value: 'U-FREED' }])).body.data.id;
      expect((await ctx.call('DELETE', `${rows()}/${holder}`)).body.error_code).toBe(1);
      const reuse = await create([{ id: 'title', value: 'U7' }, { id: 'code', value: 'U-FREED' }]);
      expect(reuse.body.error_code).toBe(1);
      const other = (await create([{ id: 'title', value: 'U8' }])).body.data.id;
      expect((await patch(other, [{ id: 'code', value: 'U-FREED' }])).body.error_code).toBe(100005);
    });

    it('allows many records with the unique field empty', async () => {
      for (const title of ['E1', 'E2', 'E3']) expect((await create([{ id: 'title', value: title }])).body.error_code).toBe(1);
    });
  });

  describe('field ids in write bodies', () => {
    it('refuses an unknown field with 10002 naming it, on create and update', async () => {
      const onCreate = await create([{ id: 'title', value: 'x' }, { id: 'no_such_field', value: 1 }]);
      expect(onCreate.status).toBe(400);
      expect(onCreate.body.error_code).toBe(10002);
      expect(onCreate.body.error_msg).toContain('no_such_field');
      const id = (await create([{ id: 'title', value: 'y' }])).body.data.id;
      const onUpdate = await patch(id, [{ id: 'ghost_field', value: 1 }]);
      expect(onUpdate.body.error_code).toBe(10002);
      expect(onUpdate.body.error_msg).toContain('ghost_field');
    });

    it('refuses a field item without an id with 10001', async () => {
      const missing = await create([{ id: 'title', value: 'x' }, { value: 'orphan' }]);
      expect(missing.status).toBe(400);
      expect(missing.body.error_code).toBe(10001);
      expect(missing.body.error_msg).toContain('id');
      const blank = await create([{ id: '', value: 'orphan' }]);
      expect(blank.body.error_code).toBe(10001);
    });

    it('refuses a body without fields with 10001', async () => {
      const response = await ctx.call('POST', rows(), {});
      expect(response.body.error_code).toBe(10001);
      expect(response.body.error_msg).toContain('fields');
    });

    it('refuses a value of the wrong kind with 10002 naming the field', async () => {
      const response = await create([{ id: 'title', value: 'x' }, { id: 'amount', value: 'twelve' }]);
      expect(response.body.error_code).toBe(10002);
      expect(response.body.error_msg).toContain('Amount');
    });

    it('refuses the same field twice with 10002', async () => {
      const response = await create([{ id: 'title', value: 'x' }, { id: sheet.field.title, value: 'y' }]);
      expect(response.body.error_code).toBe(10002);
    });
  });

  describe('delete', () => {
    const remove = (id: string, body?: unknown, headers?: Record<string, string>) =>
      ctx.call('DELETE', `${rows()}/${id}`, body, headers ? { ...ctx.auth, ...headers } : undefined);
    const storedRow = async (id: string) => {
      const found = await sql<{ id: string; _deleted_at: unknown }>`SELECT id, _deleted_at FROM ${sql.table(rowTableName(sheet.id))} WHERE id = ${id}`.execute(ctx.database.db);
      return found.rows[0];
    };

    it('is logical by default: the record reads as 10007 but is kept', async () => {
      const id = (await create([{ id: 'title', value: 'Soft' }])).body.data.id;
      const response = await remove(id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, error_code: 1, data: null });
      const read = await get(id);
      expect(read.status).toBe(404);
      expect(read.body.error_code).toBe(10007);
      const stored = await storedRow(id);
      expect(stored?.id).toBe(id);
      expect(stored?._deleted_at).not.toBeNull();
    });

    it('answers 10007 when the record is deleted again or never existed', async () => {
      const id = (await create([{ id: 'title', value: 'Twice' }])).body.data.id;
      expect((await remove(id)).body.error_code).toBe(1);
      const again = await remove(id);
      expect(again.status).toBe(404);
      expect(again.body.error_code).toBe(10007);
      expect((await remove('never-was')).body.error_code).toBe(10007);
    });

    it('permanent: true removes the record for good', async () => {
      const id = (await create([{ id: 'title', value: 'Hard' }])).body.data.id;
      expect((await remove(id, { permanent: true })).body.error_code).toBe(1);
      expect(await storedRow(id)).toBeUndefined();
      expect((await get(id)).body.error_code).toBe(10007);
      expect((await remove(id, { permanent: true })).body.error_code).toBe(10007);
    });

    it('permanent: true also purges a record already in the recycle bin', async () => {
      const id = (await create([{ id: 'title', value: 'Bin then purge' }])).body.data.id;
      expect((await remove(id)).body.error_code).toBe(1);
      expect((await remove(id, { permanent: true })).body.error_code).toBe(1);
      expect(await storedRow(id)).toBeUndefined();
    });

    it.each([['true'], ['True'], [1], ['1']])('reads permanent given as %j as true', async (permanent) => {
      const id = (await create([{ id: 'title', value: `Lenient ${String(permanent)}` }])).body.data.id;
      expect((await remove(id, { permanent })).body.error_code).toBe(1);
      expect(await storedRow(id)).toBeUndefined();
    });

    it.each([[false], ['false'], [0]])('reads permanent given as %j as false', async (permanent) => {
      const id = (await create([{ id: 'title', value: `Lenient ${String(permanent)}` }])).body.data.id;
      expect((await remove(id, { permanent })).body.error_code).toBe(1);
      expect((await storedRow(id))?._deleted_at).not.toBeNull();
    });

    it('refuses a permanent flag that is not a boolean with 10001', async () => {
      const id = (await create([{ id: 'title', value: 'Bad flag' }])).body.data.id;
      const response = await remove(id, { permanent: 'perhaps' });
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(10001);
      expect(response.body.error_msg).toContain('permanent');
      expect((await get(id)).body.error_code).toBe(1);
    });

    it('works with content-type: application/json and an empty body', async () => {
      const id = (await create([{ id: 'title', value: 'Empty body' }])).body.data.id;
      const response = await ctx.app.inject({
        method: 'DELETE',
        url: `${rows()}/${id}`,
        headers: { ...ctx.auth, 'content-type': 'application/json' },
        payload: '',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ success: true, error_code: 1 });
      expect((await storedRow(id))?._deleted_at).not.toBeNull();
    });
  });
});

describeApi('records: auto numbers', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
  const seqOf = async (id: string) => {
    const record = (await ctx.call<WireRecord>('GET', `${rows()}/${id}`)).body.data;
    return valueOf(record, sheet.field.seq);
  };

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Numbered', RECORD_TEST_FIELDS);
  });

  it('assigns 1, 2, 3… in insertion order, across single creates and batches', async () => {
    const first = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'n1' }] })).body.data.id;
    const batch = await ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, {
      rows: [{ fields: [{ id: 'title', value: 'n2' }] }, { fields: [{ id: 'title', value: 'n3' }] }],
    });
    const last = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'n4' }] })).body.data.id;
    const ids = [first, ...batch.body.data.rowIds, last];
    expect(await Promise.all(ids.map(seqOf))).toEqual(['1', '2', '3', '4']);
  });

  it('never reuses a number after a delete or a failed write', async () => {
    const id = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'n5' }] })).body.data.id;
    expect(await seqOf(id)).toBe('5');
    await ctx.call('DELETE', `${rows()}/${id}`, { permanent: true });
    const refused = await ctx.call('POST', rows(), { fields: [{ id: 'notes', value: 'no title' }] });
    expect(refused.body.error_code).toBe(430019);
    const next = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'n6' }] })).body.data.id;
    expect(await seqOf(next)).toBe('6');
  });

  it('refuses a written auto number with 10002, on create and update', async () => {
    const onCreate = await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'x' }, { id: 'seq', value: 99 }] });
    expect(onCreate.body.error_code).toBe(10002);
    expect(onCreate.body.error_msg).toContain('Seq');
    const id = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'n7' }] })).body.data.id;
    const onUpdate = await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'seq', value: 1 }] });
    expect(onUpdate.body.error_code).toBe(10002);
    expect(await seqOf(id)).toBe('7');
  });

  it('keeps the assigned number when an update sends the auto number field empty', async () => {
    const id = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'n8' }] })).body.data.id;
    const response = await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'seq', value: null }, { id: 'notes', value: 'touched' }] });
    expect(response.body.error_code).toBe(1);
    expect(await seqOf(id)).toBe('8');
  });
});

describeApi('records and read-only keys', (ctx) => {
  it('lets a read-only key get and list records but not write them (10005)', async () => {
    const sheet = await makeSheet(ctx, 'Guarded', RECORD_TEST_FIELDS);
    const rows = `/v3/app/worksheets/${sheet.id}/rows`;
    const id = (await ctx.call<{ id: string }>('POST', rows, { fields: [{ id: 'title', value: 'kept' }] })).body.data.id;
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, true, Date.now());
    const readOnly = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
    expect((await ctx.call('GET', `${rows}/${id}`, undefined, readOnly)).body.error_code).toBe(1);
    expect((await ctx.call<{ total: number }>('POST', `${rows}/list`, {}, readOnly)).body.data.total).toBe(1);
    const writes: Array<[string, string, unknown]> = [
      ['POST', rows, { fields: [{ id: 'title', value: 'no' }] }],
      ['PATCH', `${rows}/${id}`, { fields: [{ id: 'notes', value: 'no' }] }],
      ['DELETE', `${rows}/${id}`, undefined],
      ['POST', `${rows}/batch`, { rows: [{ fields: [{ id: 'title', value: 'no' }] }] }],
      ['PATCH', `${rows}/batch`, { rowIds: [id], fields: [{ id: 'notes', value: 'no' }] }],
      ['DELETE', `${rows}/batch`, { rowIds: [id] }],
    ];
    for (const [method, url, body] of writes) {
      const response = await ctx.call(method, url, body, readOnly);
      expect(response.status, `${method} ${url}`).toBe(403);
      expect(response.body.error_code).toBe(10005);
    }
    const record = (await ctx.call<WireRecord>('GET', `${rows}/${id}`)).body.data;
    expect(valueOf(record, sheet.field.notes)).toBe('');
  });
});

describeApi('records under /api/v3', (ctx) => {
  it('serves create, get, update, delete and list the same as /v3', async () => {
    const sheet = await makeSheet(ctx, 'Prefixed', RECORD_TEST_FIELDS);
    const base = `/api/v3/app/worksheets/${sheet.id}/rows`;
    const created = await ctx.call<{ id: string }>('POST', base, { fields: [{ id: 'title', value: 'via api' }] });
    expect(created.body.error_code).toBe(1);
    const id = created.body.data.id;
    expect((await ctx.call('PATCH', `${base}/${id}`, { fields: [{ id: 'notes', value: 'patched' }] })).body.data).toEqual({ id });
    const viaApi = await ctx.call<WireRecord>('GET', `${base}/${id}`);
    const viaV3 = await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
    expect(viaApi.body).toEqual(viaV3.body);
    expect(valueOf(viaApi.body.data, sheet.field.notes)).toBe('patched');
    const list = await ctx.call<{ total: number }>('POST', `${base}/list`, {});
    expect(list.body.data.total).toBe(1);
    expect((await ctx.call('DELETE', `${base}/${id}`)).body.error_code).toBe(1);
    expect((await ctx.call('GET', `${base}/${id}`)).body.error_code).toBe(10007);
  });
});

describeApi('records over real HTTP', (ctx) => {
  describe('on a listening server', () => {
    let origin: string;

    beforeAll(async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const address = ctx.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
      origin = `http://127.0.0.1:${address.port}`;
    });

    it('creates and reads a record with headers in any case', async () => {
      const sheet = await makeSheet(ctx, 'Wire', RECORD_TEST_FIELDS);
      const created = await fetch(`${origin}/v3/app/worksheets/${sheet.id}/rows`, {
        method: 'POST',
        headers: { 'svc-appkey': ctx.setup.app.appKey, 'SVC-SIGN': ctx.setup.app.sign, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields: [{ id: 'title', value: 'Over the wire' }, { id: 'amount', value: '7' }], triggerWorkflow: true }),
      });
      expect(created.status).toBe(200);
      expect(created.headers.get('content-type')).toMatch(/^application\/json/);
      const createdBody = (await created.json()) as { success: boolean; data: { id: string } };
      expect(createdBody.success).toBe(true);

      const read = await fetch(`${origin}/v3/app/worksheets/${sheet.id}/rows/${createdBody.data.id}`, {
        headers: { 'Svc-AppKey': ctx.setup.app.appKey, 'svc-sign': ctx.setup.app.sign },
      });
      expect(read.status).toBe(200);
      const record = ((await read.json()) as { data: WireRecord }).data;
      expect(record.id).toBe(createdBody.data.id);
      expect(valueOf(record, sheet.field.title)).toBe('Over the wire');
      expect(valueOf(record, sheet.field.amount)).toBe('7');
      expect(record._createdBy).toEqual(API_USER);
    });

    it('refuses a request without credentials with 10101 over the wire', async () => {
      const response = await fetch(`${origin}/v3/app/worksheets/anything/rows/anything`);
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error_code: number }).error_code).toBe(10101);
    });
  });
});
