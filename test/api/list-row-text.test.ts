import { expect, it } from 'vitest';
import { allFieldTypes } from '../../src/fields/registry.js';
import { describeApi } from '../helpers/api-harness.js';
import { inWorld, sampleOf, type SampleWorld } from '../fields/field-samples.js';

interface FieldOut {
  id: string;
  alias: string;
  options: Array<{ key: string; value: string }>;
}

const VALUE_TYPES = allFieldTypes().filter((t) => t.availability === 'ready' && t.column !== null && !t.computed && !t.edits && !t.pointsAt);
const aliasOf = (code: string) => `f${code}`;

/**
 * The list and get routes write records straight to JSON text (`row-json.ts`), in the spec shape and
 * flat; a relation's list still serialises record objects through the row schema. For every ready
 * value type, filled and empty, all three must give the same record, key for key, in short list
 * pages (spliced into the envelope) and long ones (more than 16 rows, sent in pieces).
 */
describeApi('list rows written as text read as the get serialises them', (ctx) => {
  let worksheetId = '';
  const ids: string[] = [];

  async function rawCall(method: string, url: string, body?: unknown): Promise<string> {
    const response = await ctx.app.inject({ method: method as 'GET' | 'POST', url, headers: { ...ctx.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, payload: body === undefined ? undefined : JSON.stringify(body) });
    expect(response.statusCode).toBe(200);
    return response.body;
  }

  it('stores one record of every ready value type, twenty empty ones, and one with texts to escape', async () => {
    const fields = VALUE_TYPES.map((t) => ({ name: `${t.name} "${t.code}" \u2013 \\`, alias: aliasOf(t.code), type: t.code, ...sampleOf(t.code).definition }));
    const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Rows as text', fields });
    expect(created.body.error_msg).toBe('');
    worksheetId = created.body.data.worksheetId;
    const schema = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`);
    const department = { id: 'dep-row-text', name: 'Row "text"' };
    await ctx.database.db.insertInto('departments').values({ id: department.id, organization_id: ctx.setup.organizationId, parent_id: null, name: department.name, created_at: Date.now() }).execute();
    const owner = await ctx.database.db.selectFrom('accounts').select(['id', 'fullname', 'status']).where('id', '=', ctx.setup.owner.accountId).executeTakeFirstOrThrow();
    const account = { accountId: owner.id, fullname: owner.fullname, avatar: '', status: owner.status };
    const written = VALUE_TYPES.flatMap((t) => {
      const sample = sampleOf(t.code);
      const field = schema.body.data.fields.find((f) => f.alias === aliasOf(t.code))!;
      const world: SampleWorld = { account, department, optionKey: (text) => field.options.find((o) => o.value === text)!.key };
      return sample.written === undefined ? [] : [{ id: aliasOf(t.code), value: inWorld(sample.written, world) }];
    });
    const full = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${worksheetId}/rows`, { fields: written });
    expect(full.body.error_msg).toBe('');
    const tricky = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${worksheetId}/rows`, {
      fields: [{ id: aliasOf('2'), value: 'quote " backslash \\ newline \n control \u0001 emoji \u{1F600} CJK 上海' }],
    });
    expect(tricky.body.error_msg).toBe('');
    const empty = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${worksheetId}/rows/batch`, { rows: Array.from({ length: 20 }, () => ({ fields: [] })) });
    expect(empty.body.error_msg).toBe('');
    ids.push(full.body.data.id, tricky.body.data.id, ...empty.body.data.rowIds);
  });

  // The reference: a relation's list still presents its records as objects, serialised by the row
  // schema. A worksheet whose one record relates to all 22 reads them back that way.
  let hub = { worksheetId: '', rowId: '' };
  async function throughRelation(query: string): Promise<Map<string, string>> {
    const text = await rawCall('GET', `/v3/app/worksheets/${hub.worksheetId}/rows/${hub.rowId}/relations/rows?pageSize=50${query}`);
    const page = JSON.parse(text) as { data: { rows: Array<{ id: string }> } };
    expect(page.data.rows).toHaveLength(22);
    return new Map(page.data.rows.map((row) => [row.id, JSON.stringify(row)]));
  }

  it('relates all 22 records to one record of another worksheet', async () => {
    const made = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', {
      name: 'Hub',
      fields: [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Rows', alias: 'rows', type: '29', subType: 2, dataSource: worksheetId },
      ],
    });
    expect(made.body.error_msg).toBe('');
    const row = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${made.body.data.worksheetId}/rows`, { fields: [{ id: 'title', value: 'hub' }, { id: 'rows', value: ids }] });
    expect(row.body.error_msg).toBe('');
    hub = { worksheetId: made.body.data.worksheetId, rowId: row.body.data.id };
  });

  // Flat rows (public profile, or useFieldIdAsKey given) are written as text too.
  const flatShapes = [
    { useFieldIdAsKey: false },
    { useFieldIdAsKey: true },
    { useFieldIdAsKey: false, includeSystemFields: true },
  ];
  for (const shape of flatShapes) {
    it(`gives each flat row (${JSON.stringify(shape)}) exactly as its get and the relation list do`, async () => {
      const listed = await rawCall('POST', `/v3/app/worksheets/${worksheetId}/rows/list`, { pageSize: 22, sorts: [{ field: 'autoid', isAsc: true }], ...shape });
      const page = JSON.parse(listed) as { data: { rows: Array<{ id: string; rowId: string }> } };
      expect(JSON.stringify(page)).toBe(listed);
      expect(page.data.rows.map((r) => r.id)).toEqual(page.data.rows.map((r) => r.rowId));
      expect(page.data.rows.slice(0, 2).map((r) => r.id)).toEqual(ids.slice(0, 2));
      const query = Object.entries(shape).map(([key, value]) => `${key}=${String(value)}`).join('&');
      const asObjects = await throughRelation(`&useFieldIdAsKey=${shape.useFieldIdAsKey}&isReturnSystemFields=${shape.includeSystemFields === true}`);
      for (const row of page.data.rows) {
        expect(JSON.stringify(row)).toBe(asObjects.get(row.id));
        const got = JSON.parse(await rawCall('GET', `/v3/app/worksheets/${worksheetId}/rows/${row.id}?${query}`)) as { data: unknown };
        expect(JSON.stringify(got.data)).toBe(asObjects.get(row.id));
      }
    });
  }

  for (const pageSize of [3, 22]) {
    it(`gives each row of a page of ${pageSize} exactly as its get and the relation list do`, async () => {
      // The two filled records first (each made alone, before the batch), then empty ones.
      const listed = await rawCall('POST', `/v3/app/worksheets/${worksheetId}/rows/list`, { pageSize, sorts: [{ field: 'autoid', isAsc: true }] });
      // The text is what JSON.stringify would write of it: no stray bytes between the spliced rows.
      const page = JSON.parse(listed) as { data: { rows: Array<{ id: string }>; total: number } };
      expect(JSON.stringify(page)).toBe(listed);
      expect(page.data.total).toBe(22);
      expect(page.data.rows).toHaveLength(pageSize);
      expect(page.data.rows.slice(0, 2).map((r) => r.id)).toEqual(ids.slice(0, 2));
      expect(page.data.rows.every((r) => ids.includes(r.id))).toBe(true);
      const asObjects = await throughRelation('');
      for (const row of page.data.rows) {
        expect(JSON.stringify(row)).toBe(asObjects.get(row.id));
        const got = JSON.parse(await rawCall('GET', `/v3/app/worksheets/${worksheetId}/rows/${row.id}`)) as { data: unknown };
        expect(JSON.stringify(got.data)).toBe(asObjects.get(row.id));
      }
    });
  }
});
