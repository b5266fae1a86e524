import { beforeAll, describe, expect, it } from 'vitest';
import { describeApi, type ApiResponse } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * The exact cases of issue 5, pinned as regressions on both engines; the fuzzer
 * (openapi-routes.test.ts) looks for their whole class. Test names carry the wording.
 */

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Amount', alias: 'amount', type: '6' },
];

/** A JSON text nesting `1` in 10,000 arrays: written out, since building it as a value would overflow JSON.stringify. */
const DEEP_10K = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;

/** Sends a JSON text as it is (the harness's `call` would stringify it again). */
async function send(ctx: Parameters<Parameters<typeof describeApi>[1]>[0], method: string, url: string, text: string): Promise<ApiResponse> {
  const response = await ctx.app.inject({ method: method as 'POST', url, headers: { ...ctx.auth, 'content-type': 'application/json' }, payload: text });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

/** 400, the code, and a message that names where the bad value is (its path) or the field (its name). */
function expectRefused(response: ApiResponse, code: number, names: RegExp): void {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body).toMatchObject({ success: false, error_code: code, data: null });
  expect(response.body.error_msg).toMatch(names);
}

describeApi('issue 5: regressions', (ctx) => {
  let sheet: Sheet;
  let rowId: string;

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Issue 5', FIELDS);
    const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'first' }] });
    expect(created.body.error_msg).toBe('');
    rowId = created.body.data.id;
  });

  describe('mass assignment in POST /v3/app', () => {
    async function appRow() {
      const row = await ctx.database.db
        .selectFrom('apps')
        .select(['id', 'organization_id', 'owner_id', 'created_at', 'name', 'description', 'icon', 'color'])
        .where('id', '=', ctx.setup.app.appId)
        .executeTakeFirstOrThrow();
      return { ...row, created_at: Number(row.created_at) };
    }

    for (const body of [{ owner_id: 'someone-else' }, { created_at: 0 }, { organization_id: 'x' }, { fields: null }]) {
      it(`POST /v3/app with ${JSON.stringify(body)} → HTTP 200 and nothing changed`, async () => {
        const before = await appRow();
        const response = await ctx.call('POST', '/v3/app', body);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body).toMatchObject({ success: true, error_code: 1, data: null });
        expect(await appRow()).toEqual(before);
      });
    }
  });

  describe('a record value nested 10,000 levels deep on single and batch create and update → 400 with error_code 10002 and a message naming the field', () => {
    const value = `[{"id":"amount","value":${DEEP_10K}}]`;
    const names = /fields\[0\]|"Amount"|amount/;

    it('single create: POST …/rows', async () => {
      expectRefused(await send(ctx, 'POST', `/v3/app/worksheets/${sheet.id}/rows`, `{"fields":${value}}`), 10002, names);
    });

    it('batch create: POST …/rows/batch', async () => {
      expectRefused(await send(ctx, 'POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, `{"rows":[{"fields":${value}}]}`), 10002, names);
    });

    it('single update: PATCH …/rows/{row_id}', async () => {
      expectRefused(await send(ctx, 'PATCH', `/v3/app/worksheets/${sheet.id}/rows/${rowId}`, `{"fields":${value}}`), 10002, names);
    });

    it('batch update, the same values on each: PATCH …/rows/batch {rowIds, fields}', async () => {
      expectRefused(await send(ctx, 'PATCH', `/v3/app/worksheets/${sheet.id}/rows/batch`, `{"rowIds":["${rowId}"],"fields":${value}}`), 10002, names);
    });

    it('batch update, per record: PATCH …/rows/batch {rows}', async () => {
      expectRefused(await send(ctx, 'PATCH', `/v3/app/worksheets/${sheet.id}/rows/batch`, `{"rows":[{"id":"${rowId}","fields":${value}}]}`), 10002, names);
    });
  });

  describe('pageIndex/pageSize "Infinity", "-Infinity", "1e309" on rows/list → 400 with 10001 or 10002', () => {
    for (const parameter of ['pageIndex', 'pageSize']) {
      for (const text of ['"Infinity"', '"-Infinity"', '"1e309"', '1e309', '-1e309']) {
        it(`${parameter} ${text} on rows/list → 400 with 10001 or 10002`, async () => {
          const response = await send(ctx, 'POST', `/v3/app/worksheets/${sheet.id}/rows/list`, `{"${parameter}":${text}}`);
          expect(response.status, JSON.stringify(response.body)).toBe(400);
          expect(response.body).toMatchObject({ success: false, data: null });
          expect([10001, 10002]).toContain(response.body.error_code);
          expect(response.body.error_msg).toContain(parameter);
        });
      }
    }
  });

  describe('U+0000 in a path id, in a record value, a worksheet/field name, and an id in a batch', () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      it(`U+0000 in a path id: ${method} a record id → 404 with 10007`, async () => {
        const body = method === 'PATCH' ? { fields: [{ id: 'title', value: 'x' }] } : undefined;
        const response = await ctx.call(method, `/v3/app/worksheets/${sheet.id}/rows/${rowId.slice(0, 8)}%00${rowId.slice(8)}`, body);
        expect(response.status, JSON.stringify(response.body)).toBe(404);
        expect(response.body).toMatchObject({ success: false, error_code: 10007, data: null });
      });
    }

    for (const [method, suffix] of [['GET', ''], ['DELETE', ''], ['POST', '/structure'], ['POST', '/rows/list']] as const) {
      it(`U+0000 in a path id: ${method} a worksheet id${suffix} → 404 with 10007 or 430022`, async () => {
        const response = await ctx.call(method, `/v3/app/worksheets/a%00b${suffix}`, method === 'POST' ? {} : undefined);
        expect(response.status, JSON.stringify(response.body)).toBe(404);
        expect(response.body).toMatchObject({ success: false, data: null });
        expect([10007, 430022]).toContain(response.body.error_code);
      });
    }

    it('U+0000 in a record value → 400 with 10002 naming the field', async () => {
      const created = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'a\u0000b' }] });
      expectRefused(created, 10002, /fields\[0\]|"Title"|title/);
      const updated = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${rowId}`, { fields: [{ id: 'title', value: 'a\u0000b' }] });
      expectRefused(updated, 10002, /fields\[0\]|"Title"|title/);
    });

    it('U+0000 in a worksheet name → 400 with 10002 naming the field', async () => {
      expectRefused(await ctx.call('POST', '/v3/app/worksheets', { name: 'a\u0000b' }), 10002, /name/);
      expectRefused(await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/structure`, { name: 'a\u0000b' }), 10002, /name/);
    });

    it('U+0000 in a field name → 400 with 10002 naming the field', async () => {
      expectRefused(await ctx.call('POST', '/v3/app/worksheets', { name: 'NUL field', fields: [{ name: 'a\u0000b', type: '2' }] }), 10002, /fields\[0\]/);
      expectRefused(await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/structure`, { addFields: [{ name: 'a\u0000b', type: '2' }] }), 10002, /addFields\[0\]/);
    });

    it('U+0000 in an id in a batch → 400 with 10002 naming the field', async () => {
      const url = `/v3/app/worksheets/${sheet.id}/rows/batch`;
      expectRefused(await ctx.call('DELETE', url, { rowIds: ['a\u0000b'] }), 10002, /rowIds\[0\]/);
      expectRefused(await ctx.call('PATCH', url, { rowIds: ['a\u0000b'], fields: [{ id: 'title', value: 'x' }] }), 10002, /rowIds\[0\]/);
      expectRefused(await ctx.call('PATCH', url, { rows: [{ id: 'a\u0000b', fields: [{ id: 'title', value: 'x' }] }] }), 10002, /rows\[0\]\.id/);
    });
  });
});
