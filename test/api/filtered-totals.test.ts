import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * A filtered total is counted once per version of the records and kept (filtered-totals.ts): every
 * committed write, through this process or another one on the same database, must show in the
 * next total.
 */
describeApi('filtered totals', (ctx) => {
  let sheet: Sheet;
  let otherDatabase: Database;
  let other: FastifyInstance;
  const filter = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'qty', operator: 'gt', value: 5 }] };
  const totalVia = async (app: FastifyInstance) => {
    const response = await app.inject({ method: 'POST', url: `/v3/app/worksheets/${sheet.id}/rows/list`, headers: { ...ctx.auth, 'content-type': 'application/json' }, payload: JSON.stringify({ filter, pageSize: 1 }) });
    return (response.json() as { data: { total: number } }).data.total;
  };
  const total = () => totalVia(ctx.app);

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Totals', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Qty', alias: 'qty', type: '6' },
    ]);
    const rows = [1, 6, 7, 8].map((qty) => ({ fields: [{ id: 'title', value: `q${qty}` }, { id: 'qty', value: qty }] }));
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.error_msg).toBe('');
    // A second server process on the same database, as behind a load balancer.
    otherDatabase = openDatabase(ctx.config.databaseUrl);
    other = await buildApp({ config: ctx.config, database: otherDatabase, logger: false });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  const ids = async () => {
    const listed = await ctx.call<{ rows: Array<{ id: string; fields: Array<{ id: string; value: unknown }> }> }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { pageSize: 10, sorts: [{ field: 'qty', isAsc: true }] });
    return listed.body.data.rows.map((row) => row.id);
  };

  it('follows creates, updates and deletes made here', async () => {
    expect(await total()).toBe(3);
    expect(await total()).toBe(3);
    const [low, six] = await ids();
    expect((await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${low}`, { fields: [{ id: 'qty', value: 50 }] })).body.error_msg).toBe('');
    expect(await total()).toBe(4);
    expect((await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rowIds: [low], fields: [{ id: 'qty', value: 0 }] })).body.error_msg).toBe('');
    expect(await total()).toBe(3);
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${six}`, {})).body.error_msg).toBe('');
    expect(await total()).toBe(2);
    expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'new' }, { id: 'qty', value: 9 }] })).body.error_msg).toBe('');
    expect(await total()).toBe(3);
  });

  it('follows writes made by another process on the same database', async () => {
    const before = await total();
    expect(await totalVia(other)).toBe(before);
    const created = await other.inject({
      method: 'POST',
      url: `/v3/app/worksheets/${sheet.id}/rows`,
      headers: { ...ctx.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ fields: [{ id: 'title', value: 'elsewhere' }, { id: 'qty', value: 99 }] }),
    });
    expect(created.statusCode).toBe(200);
    expect(await total()).toBe(before + 1);
    const id = (created.json() as { data: { id: string } }).data.id;
    const removed = await other.inject({ method: 'DELETE', url: `/v3/app/worksheets/${sheet.id}/rows/${id}`, headers: { ...ctx.auth, 'content-type': 'application/json' }, payload: '{"permanent":true}' });
    expect(removed.statusCode).toBe(200);
    expect(await total()).toBe(before);
  });
});
