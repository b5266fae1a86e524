import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { describeApi } from '../helpers/api-harness.js';
import { sendRaw } from '../helpers/raw-http.js';
import { makeSheet, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/** Text that is not Latin-1, so that a page is held by V8 as a two-byte string (see chunked-rows-serializer.ts). */
const titleOf = (n: number) => `Record ${n} – 東京 ${'é'.repeat(n % 5)} 🌿 “quoted” \\ ${'x'.repeat(300)}`;

describeApi('the read path', (ctx) => {
  let sheet: Sheet;
  let port: number;

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Read path', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Rank', alias: 'rank', type: '6' },
    ]);
    const rows = Array.from({ length: 45 }, (_, i) => ({ fields: [{ id: 'title', value: titleOf(i + 1) }, { id: 'rank', value: i + 1 }] }));
    const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows });
    expect(created.body.error_msg).toBe('');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx.app.close();
  });

  const listRaw = async (body: unknown) => {
    const payload = JSON.stringify(body);
    const head = [
      `POST /v3/app/worksheets/${sheet.id}/rows/list HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      ...Object.entries(ctx.auth).map(([name, value]) => `${name}: ${value}`),
    ];
    return sendRaw(port, `${head.join('\r\n')}\r\n\r\n${payload}`);
  };

  it('a long page of non-Latin text is sent whole, with the right Content-Length, and reads as the short pages do', async () => {
    const sorts = [{ field: 'rank', isAsc: true }];
    const long = await listRaw({ pageSize: 40, sorts });
    expect(long.status).toBe(200);
    const page = (long.body as { data: { rows: WireRecord[]; total: number; pageIndex: number; pageSize: number } }).data;
    expect({ total: page.total, pageIndex: page.pageIndex, pageSize: page.pageSize }).toEqual({ total: 45, pageIndex: 1, pageSize: 40 });
    expect(page.rows.map((row) => valueOf(row, sheet.field.title))).toEqual(Array.from({ length: 40 }, (_, i) => titleOf(i + 1)));
    const short = await Promise.all([1, 2, 3, 4].map(async (pageIndex) => (await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 10, pageIndex, sorts })).body.data.rows));
    expect(page.rows).toEqual(short.flat());
  });

  it('the bytes of a long page are exactly those of one JSON text', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: `/v3/app/worksheets/${sheet.id}/rows/list`, headers: { ...ctx.auth, 'content-type': 'application/json' }, payload: '{"pageSize":45}' });
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    expect(JSON.stringify(JSON.parse(response.body))).toBe(response.body);
  });

  it('gets and lists never see a write that has not been committed', async () => {
    const before = await ctx.call<{ rows: WireRecord[]; total: number }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 1 });
    expect(before.body.data.total).toBe(45);
    const id = 'uncommitted-row';
    const table = sql.table(`ws_${sheet.id}`);
    const seen = await ctx.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO ${table} (id, _created_by, _owner, _updated_by, _created_at, _updated_at, ${sql.id(sheet.field.title)}) VALUES (${id}, 'user-api', 'user-api', 'user-api', 1, 1, 'not yet')`.execute(trx);
        const got = await ctx.call('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
        const listed = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 100, includeTotalCount: false });
        return { got: got.status, listed: listed.body.data.rows.some((row) => row.id === id) };
      });
    expect(seen).toEqual({ got: 404, listed: false });
    const after = await ctx.call('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
    expect(after.status).toBe(200);
  });
});
