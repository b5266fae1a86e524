import { beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord as create, makeSheet, readRecord as read, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Computed fields: formula, concatenate, lookup and rollup. Every value is checked in the first read
 * after the write that changed an input, through relations too (a customer's city on its orders, the
 * orders' total on the customer, a formula over that total, and a lookup of that formula), and after
 * deletes, restores and purges; plus filters and sorts on stored computed values, recomputation of
 * existing records when a field is defined, and the definition errors.
 */

async function patch(ctx: ApiContext, sheet: Sheet, id: string, fields: unknown[]): Promise<void> {
  const patched = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields });
  expect(patched.body.error_msg).toBe('');
}

async function value(ctx: ApiContext, sheet: Sheet, id: string, field: string): Promise<unknown> {
  return valueOf(await read(ctx, sheet, id), sheet.field[field] ?? field);
}

async function fieldIds(ctx: ApiContext, worksheetId: string): Promise<Record<string, string>> {
  const got = await ctx.call<{ fields: Array<{ id: string; alias: string; name: string }> }>('GET', `/v3/app/worksheets/${worksheetId}`);
  return Object.fromEntries(got.body.data.fields.map((f) => [f.alias || f.name, f.id]));
}

async function change(ctx: ApiContext, worksheetId: string, body: unknown) {
  return ctx.call('POST', `/v3/app/worksheets/${worksheetId}`, body);
}

describeApi('computed fields: formulas, concatenations, lookups and rollups kept current', (ctx) => {
  let customers: Sheet;
  let orders: Sheet;
  let ada: string;
  let bo: string;

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Customers', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'City', alias: 'city', type: '2' },
    ]);
    orders = await makeSheet(ctx, 'Orders', [
      { name: 'Order', alias: 'title', type: '2', isTitle: true },
      { name: 'Price', alias: 'price', type: '6', precision: 2 },
      { name: 'Cost', alias: 'cost', type: '6' },
      { name: 'Status', alias: 'status', type: '9', options: [{ value: 'Open', index: 1 }, { value: 'Done', index: 2 }] },
      { name: 'Customer', alias: 'customer', type: '29', subType: 1, dataSource: customers.id, relation: { bidirectional: true } },
      { name: 'Margin', alias: 'margin', type: 'Formula', expression: 'ROUND(($price$ - $cost$) / $price$ * 100, 1)', precision: 1 },
      { name: 'Label', alias: 'label', type: 'Concatenate', config: { expression: '$title$ ($status$)' } },
      { name: 'City', alias: 'city', type: 'Lookup', config: { relationField: 'customer', sourceField: 'city' } },
    ]);
    const reverse = (await fieldIds(ctx, customers.id)).Orders;
    const added = await change(ctx, customers.id, {
      addFields: [
        { name: 'Order count', alias: 'orders', type: 'Rollup', config: { relationField: reverse, aggregation: 'count' } },
        { name: 'Total', alias: 'total', type: 'Rollup', precision: 2, config: { relationField: reverse, sourceField: 'price', aggregation: 'SUM' } },
        { name: 'Total x2', alias: 'double', type: 'Formula', config: { expression: '$total$ * 2' } },
      ],
    });
    expect(added.body.error_msg).toBe('');
    customers.field = await fieldIds(ctx, customers.id);
    const withLookup = await change(ctx, orders.id, { addFields: [{ name: 'Customer double', alias: 'double', type: 'Lookup', config: { relationField: 'customer', sourceField: 'double' } }] });
    expect(withLookup.body.error_msg).toBe('');
    orders.field = await fieldIds(ctx, orders.id);
    ada = await create(ctx, customers, [{ id: 'title', value: 'Ada' }, { id: 'city', value: 'Paris' }]);
    bo = await create(ctx, customers, [{ id: 'title', value: 'Bo' }, { id: 'city', value: 'Oslo' }]);
  });

  it('computes a formula and a concatenation when the record is created, and again when an input changes', async () => {
    const order = await create(ctx, orders, [{ id: 'title', value: 'O-1' }, { id: 'price', value: 200 }, { id: 'cost', value: 150 }, { id: 'status', value: ['Open'] }]);
    expect(await value(ctx, orders, order, 'margin')).toBe('25.0');
    expect(await value(ctx, orders, order, 'label')).toBe('O-1 (Open)');
    await patch(ctx, orders, order, [{ id: 'cost', value: 50 }, { id: 'status', value: ['Done'] }]);
    expect(await value(ctx, orders, order, 'margin')).toBe('75.0');
    expect(await value(ctx, orders, order, 'label')).toBe('O-1 (Done)');
    const refused = await ctx.call('PATCH', `/v3/app/worksheets/${orders.id}/rows/${order}`, { fields: [{ id: 'margin', value: 1 }] });
    expect(refused.body).toMatchObject({ error_code: 10002 });
    expect(refused.body.error_msg).toContain('computed by the system');
  });

  it('keeps a customer total and count, a formula over them and a lookup of that formula, through links, moves, deletes, restores and purges', async () => {
    const o2 = await create(ctx, orders, [{ id: 'title', value: 'O-2' }, { id: 'price', value: 10 }, { id: 'customer', value: [ada] }]);
    expect(await value(ctx, customers, ada, 'total')).toBe('10.00');
    expect(await value(ctx, customers, ada, 'orders')).toBe('1');
    expect(await value(ctx, customers, ada, 'double')).toBe('20');
    expect(await value(ctx, orders, o2, 'city')).toEqual(['Paris']);
    expect(await value(ctx, orders, o2, 'double')).toEqual(['20']);
    const o3 = await create(ctx, orders, [{ id: 'title', value: 'O-3' }, { id: 'price', value: 5.5 }, { id: 'customer', value: [ada] }]);
    expect(await value(ctx, customers, ada, 'total')).toBe('15.50');
    expect(await value(ctx, orders, o2, 'double')).toEqual(['31']);
    await patch(ctx, orders, o2, [{ id: 'price', value: 20 }]);
    expect(await value(ctx, customers, ada, 'total')).toBe('25.50');
    expect(await value(ctx, orders, o3, 'double')).toEqual(['51']);
    // The city changes on the customer: every order of it shows the new one.
    await patch(ctx, customers, ada, [{ id: 'city', value: 'Lyon' }]);
    expect(await value(ctx, orders, o2, 'city')).toEqual(['Lyon']);
    expect(await value(ctx, orders, o3, 'city')).toEqual(['Lyon']);
    // An order moves to another customer: both totals follow.
    await patch(ctx, orders, o3, [{ id: 'customer', value: [bo] }]);
    expect(await value(ctx, customers, ada, 'total')).toBe('20.00');
    expect(await value(ctx, customers, bo, 'total')).toBe('5.50');
    expect(await value(ctx, orders, o3, 'city')).toEqual(['Oslo']);
    // From the customer's side: Bo takes O-2 as well.
    await patch(ctx, customers, bo, [{ id: customers.field.Orders, value: [o2], type: 1 }]);
    expect(await value(ctx, customers, ada, 'orders')).toBe('0');
    expect(await value(ctx, customers, ada, 'total')).toBe('0.00');
    expect(await value(ctx, customers, bo, 'total')).toBe('25.50');
    // Deleted orders stop counting; restored ones count again; purged ones are gone.
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${orders.id}/rows/${o2}`)).body.error_msg).toBe('');
    expect(await value(ctx, customers, bo, 'total')).toBe('5.50');
    expect(await value(ctx, customers, bo, 'orders')).toBe('1');
    expect((await ctx.call('POST', `/v3/app/worksheets/${orders.id}/rows/${o2}/restore`)).body.error_msg).toBe('');
    expect(await value(ctx, customers, bo, 'total')).toBe('25.50');
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${orders.id}/rows/${o3}`, { permanent: true })).body.error_msg).toBe('');
    expect(await value(ctx, customers, bo, 'total')).toBe('20.00');
    expect(await value(ctx, orders, o2, 'double')).toEqual(['40']);
    // A deleted customer disappears from its orders' lookups, and comes back with a restore.
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${customers.id}/rows/${bo}`)).body.error_msg).toBe('');
    expect(await value(ctx, orders, o2, 'city')).toEqual([]);
    expect((await ctx.call('POST', `/v3/app/worksheets/${customers.id}/rows/${bo}/restore`)).body.error_msg).toBe('');
    expect(await value(ctx, orders, o2, 'city')).toEqual(['Oslo']);
  });

  it('keeps a batch of records linking to many customers right', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ fields: [{ id: 'title', value: `B-${i}` }, { id: 'price', value: i }, { id: 'customer', value: [i % 2 === 0 ? ada : bo] }] }));
    const made = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/batch`, { rows });
    expect(made.body.error_msg).toBe('');
    const evens = rows.filter((_, i) => i % 2 === 0).reduce((sum, _, k) => sum + 2 * k, 0);
    const odds = rows.filter((_, i) => i % 2 === 1).reduce((sum, _, k) => sum + 2 * k + 1, 0);
    expect(await value(ctx, customers, ada, 'total')).toBe(evens.toFixed(2));
    expect(await value(ctx, customers, bo, 'total')).toBe((20 + odds).toFixed(2));
    const updated = await ctx.call('PATCH', `/v3/app/worksheets/${orders.id}/rows/batch`, { rowIds: made.body.data.rowIds, fields: [{ id: 'price', value: 1 }] });
    expect(updated.body.error_msg).toBe('');
    expect(await value(ctx, customers, ada, 'total')).toBe('15.00');
    expect(await value(ctx, customers, ada, 'orders')).toBe('15');
  });

  it('filters and sorts by stored computed values', async () => {
    const listed = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${customers.id}/rows/list`, {
      filter: { type: 'condition', field: 'total', operator: 'gt', value: 10 },
      sorts: [{ field: 'total', isAsc: false }],
    });
    expect(listed.body.error_msg).toBe('');
    expect(listed.body.data.rows.map((r) => valueOf(r, customers.field.title))).toEqual(['Bo', 'Ada']);
    const byLabel = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'condition', field: 'label', operator: 'contains', value: 'done' } });
    expect(byLabel.body.data.rows.map((r) => valueOf(r, orders.field.title))).toEqual(['O-1']);
    const lookups = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'condition', field: 'city', operator: 'isempty' } });
    expect(lookups.body.data.rows.map((r) => valueOf(r, orders.field.title))).toEqual(['O-1']);
    // A lookup filters as its source does, over the values it holds.
    const byCity = async (operator: string, value?: unknown) => {
      const listed = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'city', operator, value }, { type: 'condition', field: 'title', operator: 'startswith', value: 'O-' }] }, sorts: [{ field: 'title', isAsc: true }] });
      expect(listed.body.error_msg).toBe('');
      return listed.body.data.rows.map((r) => valueOf(r, orders.field.title));
    };
    expect(await byCity('eq', 'oslo')).toEqual(['O-2']);
    expect(await byCity('contains', 'SL')).toEqual(['O-2']);
    expect(await byCity('ne', 'Oslo')).toEqual(['O-1']);
    // A number source compares as numbers: every order with a customer has a doubled total of at least 0, none over a million.
    const byDouble = async (operator: string, value?: unknown) => {
      const listed = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'condition', field: 'double', operator, value }, pageSize: 1000 });
      expect(listed.body.error_msg).toBe('');
      return listed.body.data.rows.map((r) => r.id).sort();
    };
    const withCustomer = await byDouble('isnotempty');
    expect(withCustomer.length).toBeGreaterThan(10);
    expect(await byDouble('ge', 0)).toEqual(withCustomer);
    expect(await byDouble('gt', '1000000')).toEqual([]);
    const refused = await ctx.call('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'condition', field: 'city', operator: 'gt', value: 3 } });
    expect(refused.body.error_msg).toContain('operator gt is not allowed on Lookup');
  });

  it('keeps a filtered rollup: only the related records its filter lets through count', async () => {
    const added = await change(ctx, customers.id, {
      addFields: [{ name: 'Big orders', alias: 'big', type: 'Rollup', config: { relationField: customers.field.Orders, sourceField: 'price', aggregation: 'SUM', filter: { type: 'condition', field: 'price', operator: 'ge', value: 10 } } }],
    });
    expect(added.body.error_msg).toBe('');
    customers.field = await fieldIds(ctx, customers.id);
    const carl = await create(ctx, customers, [{ id: 'title', value: 'Carl' }]);
    const small = await create(ctx, orders, [{ id: 'title', value: 'F-1' }, { id: 'price', value: 5 }, { id: 'customer', value: [carl] }]);
    await create(ctx, orders, [{ id: 'title', value: 'F-2' }, { id: 'price', value: 12 }, { id: 'customer', value: [carl] }]);
    expect(await value(ctx, customers, carl, 'big')).toBe('12');
    // The small order grows past the filter's bound: it counts from the write on.
    await patch(ctx, orders, small, [{ id: 'price', value: 15 }]);
    expect(await value(ctx, customers, carl, 'big')).toBe('27');
    const refused = await change(ctx, customers.id, {
      addFields: [{ name: 'Bad filter', type: 'Rollup', config: { relationField: customers.field.Orders, aggregation: 'COUNT', filter: { type: 'condition', field: 'price', operator: 'contains', value: 'x' } } }],
    });
    expect(refused.body).toMatchObject({ error_code: 10002 });
    expect(refused.body.error_msg).toContain('config.filter');
    expect(refused.body.error_msg).toContain('operator contains is not allowed on Number');
    const removing = await change(ctx, orders.id, { removeFields: ['price'] });
    expect(removing.body.error_msg).toContain('"Big orders" (Rollup)');
    expect((await change(ctx, customers.id, { removeFields: ['big'] })).body.error_msg).toBe('');
    customers.field = await fieldIds(ctx, customers.id);
  });

  it('computes a field added to a worksheet that already has records, for every record', async () => {
    const added = await change(ctx, orders.id, { addFields: [{ name: 'Double price', alias: 'dp', type: '31', expression: '$price$ * 2' }] });
    expect(added.body.error_msg).toBe('');
    orders.field = await fieldIds(ctx, orders.id);
    const listed = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'condition', field: 'title', operator: 'eq', value: 'O-1' } });
    expect(valueOf(listed.body.data.rows[0], orders.field.dp)).toBe('400');
    const edited = await change(ctx, orders.id, { editFields: [{ id: 'dp', expression: '$price$ * 3' }] });
    expect(edited.body.error_msg).toBe('');
    const again = await ctx.call<{ rows: WireRecord[] }>('POST', `/v3/app/worksheets/${orders.id}/rows/list`, { filter: { type: 'condition', field: 'title', operator: 'eq', value: 'O-1' } });
    expect(valueOf(again.body.data.rows[0], orders.field.dp)).toBe('600');
  });

  it('computes date formulas: a difference in units, and a date moved by an offset', async () => {
    const sheet = await makeSheet(ctx, 'Trips', [
      { name: 'Trip', alias: 'title', type: '2', isTitle: true },
      { name: 'Start', alias: 'start', type: 'Date' },
      { name: 'End', alias: 'end', type: 'Date' },
      { name: 'Left at', alias: 'left_at', type: 'DateTime' },
      { name: 'Extra days', alias: 'extra', type: 'Number' },
      { name: 'Nights', alias: 'nights', type: 'DateFormula', config: { start: '$start$', end: '$end$', unit: 'day' } },
      { name: 'Months', alias: 'months', type: 'DateFormula', config: { start: '$start$', end: '$end$', unit: 'month' } },
      { name: 'Due', alias: 'due', type: 'DateFormula', config: { mode: 'offset', date: '$end$', offset: '$extra$', unit: 'day' } },
      { name: 'Back by', alias: 'back_by', type: 'DateFormula', config: { mode: 'offset', date: '$left_at$', offset: 36, unit: 'hour' } },
    ]);
    const trip = await create(ctx, sheet, [
      { id: 'title', value: 'T-1' },
      { id: 'start', value: '2026-01-30' },
      { id: 'end', value: '2026-03-02' },
      { id: 'left_at', value: '2026-01-30T08:00:00Z' },
      { id: 'extra', value: 3 },
    ]);
    expect(await value(ctx, sheet, trip, 'nights')).toBe('31');
    expect(await value(ctx, sheet, trip, 'months')).toBe('1');
    expect(await value(ctx, sheet, trip, 'due')).toBe('2026-03-05');
    expect(await value(ctx, sheet, trip, 'back_by')).toBe('2026-01-31T20:00:00.000Z');
    await patch(ctx, sheet, trip, [{ id: 'extra', value: -2 }, { id: 'start', value: null }]);
    expect(await value(ctx, sheet, trip, 'due')).toBe('2026-02-28');
    expect(await value(ctx, sheet, trip, 'nights')).toBeNull();
    const text = await change(ctx, sheet.id, { addFields: [{ name: 'Bad', type: 'DateFormula', config: { start: '$title$', end: '$end$' } }] });
    expect(text.body).toMatchObject({ error_code: 10002 });
    expect(text.body.error_msg).toContain('a Text field holds no date or number');
    const number = await change(ctx, sheet.id, { addFields: [{ name: 'Bad', type: 'DateFormula', config: { start: '$extra$', end: '$end$' } }] });
    expect(number.body.error_msg).toContain('"Extra days" is Number, not a date');
    const missing = await change(ctx, sheet.id, { addFields: [{ name: 'Bad', type: 'DateFormula', config: { mode: 'offset', date: '$end$' } }] });
    expect(missing.body).toMatchObject({ error_code: 10001 });
    expect(missing.body.error_msg).toContain('config.offset is required');
  });

  it('refuses bad definitions with 10002 naming the problem', async () => {
    const refusal = async (addFields: unknown[], text: string) => {
      const response = await change(ctx, orders.id, { addFields });
      expect(response.body).toMatchObject({ error_code: 10002 });
      expect(response.body.error_msg).toContain(text);
    };
    await refusal([{ name: 'F1', type: '31', expression: '$nope$ + 1' }], '$nope$ names no field of this worksheet');
    await refusal([{ name: 'F2', type: '31', expression: '$title$ + 1' }], 'a Text field holds no number or date');
    await refusal([{ name: 'F3', type: '31', expression: '$price$ +' }], 'the formula does not parse');
    await refusal([{ name: 'F4', type: '31', expression: 'import($price$)' }], 'the function import');
    await refusal([{ name: 'F5', type: '31', expression: 'cos($price$)' }], 'the function cos');
    await refusal([{ name: 'L1', type: '30', config: { relationField: 'price', sourceField: 'city' } }], 'no relation field "price"');
    await refusal([{ name: 'L2', type: '30', config: { relationField: 'customer', sourceField: 'nothing' } }], 'no field "nothing"');
    await refusal([{ name: 'R1', type: '37', config: { relationField: 'customer', sourceField: 'city', aggregation: 'SUM' } }], 'SUM needs a number field');
    const cycle = await change(ctx, orders.id, {
      addFields: [
        { name: 'A', alias: 'fa', type: '31', expression: '$fb$ + 1' },
        { name: 'B', alias: 'fb', type: '31', expression: '$fa$ + 1' },
      ],
    });
    expect(cycle.body).toMatchObject({ error_code: 10002 });
    expect(cycle.body.error_msg).toContain('circle');
  });

  it('refuses removing a field a computed field reads, and a worksheet others read', async () => {
    const removing = await change(ctx, orders.id, { removeFields: ['cost'] });
    expect(removing.body).toMatchObject({ error_code: 10002 });
    expect(removing.body.error_msg).toContain('"Margin" (Formula)');
    const removingRelation = await change(ctx, customers.id, { removeFields: [customers.field.Orders] });
    expect(removingRelation.body.error_msg).toContain('"Order count" (Rollup)');
    const deleting = await ctx.call('DELETE', `/v3/app/worksheets/${customers.id}`);
    expect(deleting.body).toMatchObject({ error_code: 10002 });
    expect(deleting.body.error_msg).toContain('worksheet "Customers" cannot be removed');
    expect((await change(ctx, orders.id, { removeFields: ['margin', 'cost'] })).body.error_msg).toBe('');
  });
});
