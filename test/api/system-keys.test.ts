import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, RECORD_TEST_FIELDS, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Keys a client may send that name storage columns or system values. Every write endpoint ignores
 * them: they must never reach an INSERT or UPDATE, and must never make the request fail.
 */
const SYSTEM_KEYS = {
  id: 'forged-id',
  app_id: 'forged-app',
  appId: 'forged-app',
  organization_id: 'forged-org',
  organizationId: 'forged-org',
  owner_id: 'someone-else',
  created_at: 0,
  updated_at: 0,
  _deleted_at: 1,
  _created_by: 'someone-else',
  _updated_by: 'someone-else',
  _owner: 'someone-else',
  _createdAt: '2000-01-01T00:00:00.000Z',
  _createdBy: { accountId: 'someone-else' },
  worksheet_id: 'forged-sheet',
  position: -5,
  indexed: 1,
  fields: undefined as unknown,
};

function withSystemKeys<T extends object>(body: T): T & typeof SYSTEM_KEYS {
  // `fields` is a real parameter of some endpoints: keep the body's own when it has one.
  return { ...SYSTEM_KEYS, ...body };
}

describeApi('system keys sent to every write endpoint change nothing', (ctx) => {
  let sheet: Sheet;
  let rowId: string;

  async function appRow() {
    return ctx.database.db.selectFrom('apps').selectAll().where('id', '=', ctx.setup.app.appId).executeTakeFirstOrThrow();
  }

  async function record(id: string): Promise<WireRecord> {
    const response = await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
    expect(response.body.error_msg).toBe('');
    return response.body.data;
  }

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'System keys', RECORD_TEST_FIELDS);
    const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'first' }] });
    rowId = created.body.data.id;
  });

  it('POST /v3/app: owner, organization, times and unknown keys are ignored; the name changes', async () => {
    const before = await appRow();
    const response = await ctx.call('POST', '/v3/app', withSystemKeys({ name: 'Renamed', fields: null }));
    expect(response.status).toBe(200);
    const after = await appRow();
    expect(after).toMatchObject({ id: before.id, owner_id: before.owner_id, organization_id: before.organization_id, created_at: before.created_at });
    expect(after.name).toBe('Renamed');
  });

  it('POST /v3/app/sections/batch and /items/batch: ids are assigned, not taken', async () => {
    const sections = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/sections/batch', withSystemKeys({ sections: [withSystemKeys({ name: 'S' })] }));
    expect(sections.body.error_msg).toBe('');
    expect(sections.body.data[0].id).not.toBe('forged-id');
    const items = await ctx.call<Array<{ id: string }>>('POST', '/v3/app/items/batch', withSystemKeys({ items: [withSystemKeys({ type: 0, name: 'I' })] }));
    expect(items.body.error_msg).toBe('');
    expect(items.body.data[0].id).not.toBe('forged-id');
    const owners = await ctx.database.db.selectFrom('sections').select('app_id').where('id', '=', sections.body.data[0].id).execute();
    expect(owners).toEqual([{ app_id: ctx.setup.app.appId }]);
  });

  it('POST /v3/app/worksheets and its structure: the worksheet stays in the caller’s application', async () => {
    const created = await ctx.call<{ worksheetId: string }>(
      'POST',
      '/v3/app/worksheets',
      withSystemKeys({ name: 'Forged', fields: [withSystemKeys({ name: 'T', type: '2' })] }),
    );
    expect(created.body.error_msg).toBe('');
    const id = created.body.data.worksheetId;
    expect(id).not.toBe('forged-id');
    for (const path of [`/v3/app/worksheets/${id}/structure`, `/v3/app/worksheets/${id}`]) {
      const changed = await ctx.call('POST', path, withSystemKeys({ name: 'Still mine', addFields: [withSystemKeys({ name: `F${path.length}`, type: '6' })] }));
      expect(changed.body.error_msg).toBe('');
    }
    const stored = await ctx.database.db.selectFrom('worksheets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.app_id).toBe(ctx.setup.app.appId);
    expect(stored.name).toBe('Still mine');
    const fields = await ctx.database.db.selectFrom('fields').select(['id', 'worksheet_id', 'indexed']).where('worksheet_id', '=', id).execute();
    expect(fields).toHaveLength(3);
    expect(fields.every((f) => f.id !== 'forged-id' && f.indexed === 0)).toBe(true);
  });

  it('record writes: id, creator, owner and times are the system’s, single and batch', async () => {
    const before = await record(rowId);
    const updated = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${rowId}`, withSystemKeys({ fields: [withSystemKeys({ id: 'notes', value: 'n' })] }));
    expect(updated.body.error_msg).toBe('');
    const batch = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/batch`, withSystemKeys({ rows: [withSystemKeys({ id: rowId, fields: [{ id: 'amount', value: 3 }] })] }));
    expect(batch.body).toMatchObject({ data: { successfulRowIds: [rowId] } });
    const after = await record(rowId);
    expect({ id: after.id, _createdBy: after._createdBy, _owner: after._owner, _createdAt: after._createdAt }).toEqual({
      id: before.id,
      _createdBy: before._createdBy,
      _owner: before._owner,
      _createdAt: before._createdAt,
    });

    const single = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, withSystemKeys({ fields: [{ id: 'title', value: 'second' }] }));
    const many = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, withSystemKeys({ rows: [withSystemKeys({ fields: [{ id: 'title', value: 'third' }] })] }));
    for (const id of [single.body.data.id, ...many.body.data.rowIds]) {
      expect(id).not.toBe('forged-id');
      const made = await record(id);
      expect(made._createdBy.accountId).toBe('user-api');
      expect(made._owner.accountId).toBe('user-api');
      expect(new Date(made._createdAt).getFullYear()).toBeGreaterThan(2020);
    }
  });

  it('record deletes ignore them too: the record goes to the recycle bin as asked, nothing else', async () => {
    const made = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, {
      rows: [{ fields: [{ id: 'title', value: 'd1' }] }, { fields: [{ id: 'title', value: 'd2' }] }],
    });
    const [one, two] = made.body.data.rowIds;
    const single = await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${one}`, withSystemKeys({}));
    expect(single.body.error_msg).toBe('');
    const batch = await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/batch`, withSystemKeys({ rowIds: [two] }));
    expect(batch.body).toMatchObject({ data: { successfulRowIds: [two] } });
    // Still in the recycle bin (a soft delete), not gone for good.
    const table = `ws_${sheet.id}`;
    const binned = await ctx.database.db
      .selectFrom(table as 'apps')
      .select('id')
      .where('id', 'in', [one, two])
      .execute();
    expect(binned).toHaveLength(2);
    expect((await record(rowId)).id).toBe(rowId);
  });
});
