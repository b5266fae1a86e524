import { expect, it } from 'vitest';
import { allFieldTypes } from '../../src/fields/registry.js';
import { describeApi } from '../helpers/api-harness.js';
import { inWorld, sampleOf, type SampleWorld } from './field-samples.js';

interface FieldOut {
  id: string;
  alias: string;
  type: string;
  options: Array<{ key: string; value: string }>;
}
interface RecordOut {
  fields: Array<{ id: string; value: unknown; type: string }>;
}

/** Every ready type that holds a value, from the registry: a new one takes part without a change here. */
const VALUE_TYPES = allFieldTypes().filter((t) => t.availability === 'ready' && t.column !== null && !t.computed && !t.edits && !t.pointsAt);
const aliasOf = (code: string) => `f${code}`;

/**
 * One sample value of every ready value type, written through the API, stored by the engine and
 * read back: write, the dialect's encoding and decoding, and read must agree on every engine.
 */
describeApi('a sample value of every ready field type, through storage and back', (ctx) => {
  let worksheetId = '';
  const worlds = new Map<string, SampleWorld>();

  it('defines one field of every ready value type', async () => {
    const fields = VALUE_TYPES.map((t) => ({ name: `${t.name} ${t.code}`, alias: aliasOf(t.code), type: t.code, ...sampleOf(t.code).definition }));
    const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Every ready type', fields });
    expect(created.body.error_msg).toBe('');
    worksheetId = created.body.data.worksheetId;
    const schema = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`);
    // The resolved type travels with each field in memory, never on the wire.
    expect(JSON.stringify(schema.body)).not.toContain('fieldType');

    const department = { id: 'dep-round-trip', name: 'Round trip' };
    await ctx.database.db
      .insertInto('departments')
      .values({ id: department.id, organization_id: ctx.setup.organizationId, parent_id: null, name: department.name, created_at: Date.now() })
      .execute();
    const owner = await ctx.database.db.selectFrom('accounts').select(['id', 'fullname', 'status']).where('id', '=', ctx.setup.owner.accountId).executeTakeFirstOrThrow();
    const account = { accountId: owner.id, fullname: owner.fullname, avatar: '', status: owner.status };
    for (const field of schema.body.data.fields) {
      const optionKey = (text: string) => field.options.find((o) => o.value === text)!.key;
      worlds.set(field.alias, { account, department, optionKey });
    }
    expect(VALUE_TYPES.every((t) => worlds.has(aliasOf(t.code)))).toBe(true);
  });

  it('reads every written value back in its wire shape', async () => {
    const written = VALUE_TYPES.flatMap((t) => {
      const sample = sampleOf(t.code);
      const alias = aliasOf(t.code);
      return sample.written === undefined ? [] : [{ id: alias, value: inWorld(sample.written, worlds.get(alias)!) }];
    });
    const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${worksheetId}/rows`, { fields: written });
    expect(created.body.error_msg).toBe('');

    const read = await ctx.call<RecordOut>('GET', `/v3/app/worksheets/${worksheetId}/rows/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain('fieldType');
    const schema = await ctx.call<{ fields: FieldOut[] }>('GET', `/v3/app/worksheets/${worksheetId}`);
    const aliasById = new Map(schema.body.data.fields.map((f) => [f.id, f.alias]));
    const actual = Object.fromEntries(read.body.data.fields.map((f) => [aliasById.get(f.id), f.value]));
    const expected = Object.fromEntries(VALUE_TYPES.map((t) => [aliasOf(t.code), inWorld(sampleOf(t.code).wire, worlds.get(aliasOf(t.code))!)]));
    // One comparison of the whole record, so that a failure lists every type that differs.
    expect(actual).toEqual(expected);
  });
});
