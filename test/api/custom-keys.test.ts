import { beforeAll, expect, it } from 'vitest';
import { setKeyWorksheets } from '../../src/modules/app-keys/index.js';
import { addKey } from '../../src/modules/setup/index.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/** App keys of the custom type (public type 10): only listed worksheets, each with its rights; no structure changes. */

describeApi('custom app keys', (ctx) => {
  let open: Sheet;
  let readOnly: Sheet;
  let hidden: Sheet;
  let headers: Record<string, string>;

  beforeAll(async () => {
    open = await makeSheet(ctx, 'Open sheet', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    readOnly = await makeSheet(ctx, 'Read sheet', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    hidden = await makeSheet(ctx, 'Other sheet', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, false, Date.now());
    const set = await setKeyWorksheets(ctx.database.db, key.appKey, [`${open.id}:read+add+edit+delete`, readOnly.id]);
    expect(set.worksheets).toEqual([
      { id: open.id, read: true, add: true, edit: true, delete: true },
      { id: readOnly.id, read: true, add: false, edit: false, delete: false },
    ]);
    headers = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
  });

  const rows = (sheet: Sheet) => `/v3/app/worksheets/${sheet.id}/rows`;

  it('reads and writes the worksheets it lists as their rights say, and nothing else', async () => {
    const made = await ctx.call<{ id: string }>('POST', rows(open), { fields: [{ id: 'title', value: 'k' }] }, headers);
    expect(made.body.error_msg).toBe('');
    expect((await ctx.call('DELETE', `${rows(open)}/${made.body.data.id}`, undefined, headers)).body.error_code).toBe(1);
    expect((await ctx.call('POST', `${rows(readOnly)}/list`, {}, headers)).body.error_code).toBe(1);
    expect((await ctx.call('POST', rows(readOnly), { fields: [{ id: 'title', value: 'k' }] }, headers)).body).toMatchObject({ error_code: 10005, error_msg: 'you may not add records to the worksheet "Read sheet"' });
    expect((await ctx.call('POST', `${rows(hidden)}/list`, {}, headers)).body).toMatchObject({ error_code: 10005, error_msg: 'you may not read records of the worksheet "Other sheet"' });
  });

  it('does not change the structure of the application', async () => {
    expect((await ctx.call('POST', `/v3/app/worksheets/${open.id}`, { name: 'Renamed' }, headers)).body).toMatchObject({ error_code: 10005, error_msg: 'only an administrator of the application may change its structure' });
  });

  it('refuses unknown worksheets and rights when the key is set (10002), and reaches every worksheet again with null', async () => {
    const key = await addKey(ctx.database.db, ctx.setup.app.appId, false, Date.now());
    await expect(setKeyWorksheets(ctx.database.db, key.appKey, ['nowhere'])).rejects.toMatchObject({ code: 10002, message: 'worksheets: no worksheet "nowhere" in the key\'s application' });
    await expect(setKeyWorksheets(ctx.database.db, key.appKey, [`${open.id}:read+fly`])).rejects.toMatchObject({ code: 10002 });
    expect((await setKeyWorksheets(ctx.database.db, key.appKey, null)).worksheets).toBeNull();
    expect((await ctx.call('POST', `${rows(hidden)}/list`, {}, { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign })).body.error_code).toBe(1);
  });
});
