import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Sub-tables (34): a child worksheet created with the field and kept out of the navigation; child
 * rows written inline (new, updated by sid, dropped), listed by the relations endpoint, deleted,
 * purged and restored with their record; child data errors are 430020 naming the row and field; a
 * rollup over the sub-table follows it.
 */
describeApi('sub-tables: child rows written, listed, deleted and restored with their record', (ctx) => {
  let invoices: Sheet;
  let field: string;
  let child: string;
  let childFields: Record<string, string>;
  const rows = (sheet: string) => `/v3/app/worksheets/${sheet}/rows`;
  const lines = async (id: string) => {
    const listed = await ctx.call<{ rows: WireRecord[]; total: number }>('GET', `${rows(invoices.id)}/${id}/relations/${field}`);
    expect(listed.body.error_msg).toBe('');
    return listed.body.data.rows.map((row) => [valueOf(row, childFields.item), valueOf(row, childFields.qty)]);
  };

  beforeAll(async () => {
    invoices = await makeSheet(ctx, 'Invoices', [
      { name: 'Invoice', alias: 'title', type: '2', isTitle: true },
      { name: 'Lines', alias: 'lines', type: 'SubTable', config: { fields: [{ name: 'Item', alias: 'item', type: 'Text', required: true }, { name: 'Qty', alias: 'qty', type: 'Number' }] } },
    ]);
    field = invoices.field.lines;
    const got = await ctx.call<{ fields: Array<{ id: string; dataSource?: string }> }>('GET', `/v3/app/worksheets/${invoices.id}`);
    child = got.body.data.fields.find((f) => f.id === field)!.dataSource!;
    const childSchema = await ctx.call<{ name: string; fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${child}`);
    expect(childSchema.body.data.name).toBe('Invoices - Lines');
    childFields = Object.fromEntries(childSchema.body.data.fields.map((f) => [f.alias, f.id]));
    const added = await ctx.call('POST', `/v3/app/worksheets/${invoices.id}`, { addFields: [{ name: 'Units', alias: 'units', type: 'Rollup', config: { relationField: 'lines', sourceField: 'qty', aggregation: 'SUM' } }] });
    expect(added.body.error_msg).toBe('');
    invoices.field.units = (await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${invoices.id}`)).body.data.fields.find((f) => f.alias === 'units')!.id;
  });

  it('keeps the child worksheet out of the navigation', async () => {
    const app = await ctx.call<{ sections: Array<{ items?: Array<{ id: string }> }> }>('GET', '/v3/app');
    expect(JSON.stringify(app.body.data)).not.toContain(child);
    expect(JSON.stringify(app.body.data)).toContain(invoices.id);
  });

  it('creates, updates by sid and drops child rows, and a rollup over them follows', async () => {
    const id = await createRecord(ctx, invoices, [
      { id: 'title', value: 'INV-1' },
      { id: 'lines', value: [[{ id: 'item', value: 'Pen' }, { id: 'qty', value: 2 }], { fields: [{ id: 'item', value: 'Ink' }, { id: 'qty', value: 5 }] }] },
    ]);
    expect(await lines(id)).toEqual([['Pen', '2'], ['Ink', '5']]);
    const record = await readRecord(ctx, invoices, id);
    const [pen, ink] = valueOf(record, field) as Array<{ sid: string; name: string }>;
    expect(pen.name).toBe('Pen');
    expect(valueOf(record, invoices.field.units)).toBe('7');
    const patched = await ctx.call('PATCH', `${rows(invoices.id)}/${id}`, { fields: [{ id: 'lines', value: [{ sid: ink.sid, fields: [{ id: 'qty', value: 6 }] }, [{ id: 'item', value: 'Pad' }]] }] });
    expect(patched.body.error_msg).toBe('');
    expect(await lines(id)).toEqual([['Ink', '6'], ['Pad', null]]);
    expect(valueOf(await readRecord(ctx, invoices, id), invoices.field.units)).toBe('6');
    // The dropped row is gone for good, not in the recycle bin.
    expect((await ctx.call('GET', `${rows(child)}/${pen.sid}`)).body.error_code).toBe(10007);
    expect(await ctx.database.db.selectFrom(`ws_${child}` as never).select('id' as never).where('id' as never, '=', pen.sid as never).execute()).toEqual([]);
  });

  it('refuses bad child data with 430020 naming the row and field, writing nothing', async () => {
    const refused = await ctx.call('POST', rows(invoices.id), { fields: [{ id: 'title', value: 'INV-bad' }, { id: 'lines', value: [[{ id: 'item', value: 'ok' }], [{ id: 'qty', value: 'many' }]] }] });
    expect(refused.body).toMatchObject({ error_code: 430020 });
    expect(refused.body.error_msg).toContain('field "Lines" rows[1].fields[0] "Qty"');
    const missing = await ctx.call('POST', rows(invoices.id), { fields: [{ id: 'title', value: 'INV-bad' }, { id: 'lines', value: [[{ id: 'qty', value: 1 }]] }] });
    expect(missing.body).toMatchObject({ error_code: 430020 });
    expect(missing.body.error_msg).toContain('"Item"');
    const foreign = await ctx.call('POST', rows(invoices.id), { fields: [{ id: 'title', value: 'INV-bad' }, { id: 'lines', value: [{ sid: 'not-mine', fields: [] }] }] });
    expect(foreign.body).toMatchObject({ error_code: 430020 });
    const listed = await ctx.call<{ total: number }>('POST', `${rows(child)}/list`, { filter: { type: 'condition', field: 'item', operator: 'eq', value: 'ok' } });
    expect(listed.body.data.total).toBe(0);
  });

  it('deletes, restores and purges the child rows with their record', async () => {
    const id = await createRecord(ctx, invoices, [{ id: 'title', value: 'INV-2' }, { id: 'lines', value: [[{ id: 'item', value: 'Cup' }]] }]);
    const [cup] = valueOf(await readRecord(ctx, invoices, id), field) as Array<{ sid: string }>;
    expect((await ctx.call('DELETE', `${rows(invoices.id)}/${id}`)).body.error_msg).toBe('');
    expect((await ctx.call('GET', `${rows(child)}/${cup.sid}`)).body.error_code).toBe(10007);
    expect((await ctx.call('POST', `${rows(invoices.id)}/${id}/restore`)).body.error_msg).toBe('');
    expect((await ctx.call('GET', `${rows(child)}/${cup.sid}`)).body.error_code).toBe(1);
    expect(await lines(id)).toEqual([['Cup', null]]);
    expect((await ctx.call('DELETE', `${rows(invoices.id)}/${id}`, { permanent: true })).body.error_msg).toBe('');
    expect(await ctx.database.db.selectFrom(`ws_${child}` as never).select('id' as never).where('id' as never, '=', cup.sid as never).execute()).toEqual([]);
  });

  it('filters by whether a record has rows, and refuses other operators', async () => {
    const empty = await createRecord(ctx, invoices, [{ id: 'title', value: 'INV-empty' }]);
    const listed = await ctx.call<{ rows: WireRecord[] }>('POST', `${rows(invoices.id)}/list`, { filter: { type: 'condition', field: 'lines', operator: 'isempty' } });
    expect(listed.body.data.rows.map((r) => r.id)).toEqual([empty]);
    const refused = await ctx.call('POST', `${rows(invoices.id)}/list`, { filter: { type: 'condition', field: 'lines', operator: 'eq', value: 'x' } });
    expect(refused.body.error_msg).toContain('operator eq is not allowed on SubTable');
  });
});
