import { beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';

/** Business rules: managed per worksheet, checked by the record writer on every write path. */

interface Rule {
  id: string;
  name: string;
  condition: { type: string; children?: Array<{ field: string }>; field?: string };
  message: string;
  enabled: boolean;
  position: number;
}

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
  { name: 'Amount', alias: 'amount', type: '6' },
  { name: 'Notes', alias: 'notes', type: '2' },
  { name: 'Double', alias: 'double', type: '31', expression: '$amount$ * 2' },
];

const OVER_1000 = { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'amount', operator: 'gt', value: 1000 }] };
const MESSAGE = 'An amount over 1000 needs approval';

function rulesApi(ctx: ApiContext, sheet: () => Sheet) {
  const base = () => `/v3/app/worksheets/${sheet().id}/rules`;
  return {
    list: () => ctx.call<{ rules: Rule[] }>('GET', base()),
    create: (body: unknown) => ctx.call<Rule>('POST', base(), body),
    update: (id: string, body: unknown) => ctx.call<Rule>('PATCH', `${base()}/${id}`, body),
    remove: (id: string) => ctx.call('DELETE', `${base()}/${id}`),
    /** Creates a rule, asserting success, and returns its id. */
    add: async (body: unknown) => {
      const created = await ctx.call<Rule>('POST', base(), body);
      expect(created.body.error_msg).toBe('');
      return created.body.data.id;
    },
  };
}

function recordsApi(ctx: ApiContext, sheet: () => Sheet) {
  const rows = () => `/v3/app/worksheets/${sheet().id}/rows`;
  return {
    create: (fields: unknown[]) => ctx.call<{ id: string }>('POST', rows(), { fields }),
    update: (id: string, fields: unknown[]) => ctx.call('PATCH', `${rows()}/${id}`, { fields }),
    createMany: (records: unknown[][]) => ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, { rows: records.map((fields) => ({ fields })) }),
    updateMany: (body: unknown) => ctx.call('PATCH', `${rows()}/batch`, body),
    remove: (id: string) => ctx.call('DELETE', `${rows()}/${id}`),
    restore: (id: string) => ctx.call('POST', `${rows()}/${id}/restore`),
    restoreMany: (rowIds: string[]) => ctx.call('POST', `${rows()}/batch/restore`, { rowIds }),
    total: async () => (await ctx.call<{ total: number }>('POST', `${rows()}/list`, { pageSize: 1 })).body.data.total,
    binTotal: async () => (await ctx.call<{ total: number }>('POST', `${rows()}/list`, { pageSize: 1, recycleBin: true })).body.data.total,
  };
}

const item = (title: string, amount?: number) => [{ id: 'title', value: title }, ...(amount === undefined ? [] : [{ id: 'amount', value: amount }])];

describeApi('business rules: managing them', (ctx) => {
  let sheet: Sheet;
  const rules = rulesApi(ctx, () => sheet);

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Rules managed', FIELDS);
  });

  it('creates, lists in order, changes and deletes rules; conditions are kept with field ids', async () => {
    const created = await rules.create({ name: 'Big amounts', condition: OVER_1000, message: MESSAGE });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true, error_code: 1 });
    expect(created.body.data).toMatchObject({ name: 'Big amounts', message: MESSAGE, enabled: true, position: 0 });
    expect(created.body.data.condition.children![0].field).toBe(sheet.field.amount);
    const second = await rules.add({ name: 'No notes', condition: { type: 'condition', field: 'notes', operator: 'isempty' }, message: 'Notes are required', enabled: false });

    const listed = await rules.list();
    expect(listed.body.data.rules.map((r) => [r.id, r.enabled, r.position])).toEqual([
      [created.body.data.id, true, 0],
      [second, false, 1],
    ]);
    expect(listed.body.data.rules[1].condition.field).toBe(sheet.field.notes);

    const changed = await rules.update(second, { name: 'Notes needed', enabled: 'true', message: 'Write a note' });
    expect(changed.body.error_msg).toBe('');
    expect(changed.body.data).toMatchObject({ id: second, name: 'Notes needed', enabled: true, message: 'Write a note', position: 1 });
    const moved = await rules.update(second, { condition: { type: 'condition', field: 'title', operator: 'eq', value: 'X' } });
    expect(moved.body.data.condition.field).toBe(sheet.field.title);
    expect(moved.body.data.name).toBe('Notes needed');

    expect((await rules.remove(second)).body).toMatchObject({ success: true, error_code: 1, data: null });
    expect((await rules.list()).body.data.rules.map((r) => r.id)).toEqual([created.body.data.id]);
    expect((await rules.remove(created.body.data.id)).body.error_code).toBe(1);
    expect((await rules.list()).body.data.rules).toEqual([]);
  });

  it('refuses a missing name, message or condition with 10001', async () => {
    for (const [body, key] of [
      [{ condition: OVER_1000, message: MESSAGE }, 'name'],
      [{ name: 'R', condition: OVER_1000 }, 'message'],
      [{ name: 'R', message: MESSAGE }, 'condition'],
      [{ name: 'R', message: MESSAGE, condition: {} }, 'condition'],
      [{ name: 'R', message: MESSAGE, condition: { type: 'group', children: [] } }, 'condition'],
    ] as const) {
      const response = await rules.create(body);
      expect(response.status).toBe(400);
      expect(response.body.error_code).toBe(10001);
      expect(response.body.error_msg).toContain(key);
    }
    expect((await rules.list()).body.data.rules).toEqual([]);
  });

  it('refuses a condition the list filter would refuse, with its error naming the condition (10002)', async () => {
    const unknown = await rules.create({ name: 'R', message: MESSAGE, condition: { type: 'condition', field: 'nope', operator: 'eq', value: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error_code).toBe(10002);
    expect(unknown.body.error_msg).toContain('condition');
    expect(unknown.body.error_msg).toContain('no field "nope"');
    const operator = await rules.create({ name: 'R', message: MESSAGE, condition: { type: 'group', children: [{ type: 'condition', field: 'amount', operator: 'contains', value: 'x' }] } });
    expect(operator.body.error_code).toBe(10002);
    expect(operator.body.error_msg).toContain('condition.children[0] "Amount": operator contains is not allowed on Number');
    const empty = await rules.create({ name: '  ', message: MESSAGE, condition: OVER_1000 });
    expect(empty.body.error_code).toBe(10002);
    expect(empty.body.error_msg).toContain('name');
    expect((await rules.list()).body.data.rules).toEqual([]);
  });

  it('answers 10007 for a rule that does not exist, and refuses a bad change without changing the rule', async () => {
    expect((await rules.update('nope', { name: 'X' })).body.error_code).toBe(10007);
    expect((await rules.remove('nope')).status).toBe(404);
    const id = await rules.add({ name: 'Kept', condition: OVER_1000, message: MESSAGE });
    const bad = await rules.update(id, { name: 'Changed', condition: { type: 'condition', field: 'amount', operator: 'gt' } });
    expect(bad.body.error_code).toBe(10001);
    const nulled = await rules.update(id, { condition: null });
    expect(nulled.body.error_code).toBe(10001);
    expect((await rules.list()).body.data.rules).toMatchObject([{ id, name: 'Kept' }]);
    await rules.remove(id);
  });

  it('deletes the rules of a deleted worksheet', async () => {
    const doomed = await makeSheet(ctx, 'Rules doomed', FIELDS);
    const id = (await ctx.call<Rule>('POST', `/v3/app/worksheets/${doomed.id}/rules`, { name: 'R', condition: OVER_1000, message: MESSAGE })).body.data.id;
    expect(id).toBeTruthy();
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${doomed.id}`)).body.error_msg).toBe('');
    const left = await ctx.database.db.selectFrom('business_rules').select('id').where('worksheet_id', '=', doomed.id).execute();
    expect(left).toEqual([]);
  });
});

describeApi('business rules: enforced on every write', (ctx) => {
  let sheet: Sheet;
  let ruleId: string;
  const rules = rulesApi(ctx, () => sheet);
  const records = recordsApi(ctx, () => sheet);
  const refused = (response: { status: number; body: { error_code: number; error_msg: string } }, message = MESSAGE) => {
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe(430021);
    expect(response.body.error_msg).toContain(message);
  };
  const amountOf = async (id: string) => valueOf(await readRecord(ctx, sheet, id), sheet.field.amount);

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Rules enforced', FIELDS);
    ruleId = await rules.add({ name: 'Big amounts', condition: OVER_1000, message: MESSAGE });
  });

  it('refuses a single create that matches with 430021 and the rule message, and takes one that does not', async () => {
    const before = await records.total();
    const response = await records.create(item('Too big', 5000));
    refused(response);
    expect(response.body.error_msg).toBe(MESSAGE);
    expect(await records.total()).toBe(before);
    const fine = await records.create(item('Fine', 1000));
    expect(fine.body.error_msg).toBe('');
    expect(await records.total()).toBe(before + 1);
  });

  it('refuses a single update that makes the record match, keeping its value', async () => {
    const id = await createRecord(ctx, sheet, item('Update me', 10));
    refused(await records.update(id, [{ id: 'amount', value: 1001 }]));
    expect(await amountOf(id)).toBe('10');
    expect((await records.update(id, [{ id: 'amount', value: 999 }])).body.error_msg).toBe('');
    expect(await amountOf(id)).toBe('999');
  });

  it('refuses a batch create whole, naming the record, and writes nothing', async () => {
    const before = await records.total();
    const response = await records.createMany([item('A', 1), item('B', 2000), item('C', 3)]);
    refused(response);
    expect(response.body.error_msg).toMatch(/^rows\[1\] \(record "[^"]+"\): /);
    expect(await records.total()).toBe(before);
    const fine = await records.createMany([item('A', 1), item('C', 3)]);
    expect(fine.body.data.rowIds).toHaveLength(2);
    expect(await records.total()).toBe(before + 2);
  });

  it('refuses a batch update whole, naming the record, and changes nothing', async () => {
    const low = await createRecord(ctx, sheet, item('Low', 1));
    const high = await createRecord(ctx, sheet, item('High', 900));
    const perRow = await records.updateMany({ rows: [{ id: low, fields: [{ id: 'amount', value: 2 }] }, { id: high, fields: [{ id: 'amount', value: 1200 }] }] });
    refused(perRow);
    expect(perRow.body.error_msg).toContain(`record "${high}"`);
    const same = await records.updateMany({ rowIds: [low, high], fields: [{ id: 'amount', value: 1500 }] });
    refused(same);
    expect([await amountOf(low), await amountOf(high)]).toEqual(['1', '900']);
  });

  it('refuses any write that leaves a record matching, even one not touching the condition field', async () => {
    await rules.update(ruleId, { enabled: false });
    const id = await createRecord(ctx, sheet, item('Old and big', 4000));
    await rules.update(ruleId, { enabled: true });
    refused(await records.update(id, [{ id: 'notes', value: 'just a note' }]));
    expect(valueOf(await readRecord(ctx, sheet, id), sheet.field.notes)).toBe('');
    // Bringing it back within the rule is a write that leaves it not matching.
    expect((await records.update(id, [{ id: 'amount', value: 100 }, { id: 'notes', value: 'fixed' }])).body.error_msg).toBe('');
  });

  it('lets a matching record be deleted, and refuses to restore it while it matches', async () => {
    await rules.update(ruleId, { enabled: false });
    const first = await createRecord(ctx, sheet, item('Binned big', 7000));
    const second = await createRecord(ctx, sheet, item('Binned small', 7));
    await rules.update(ruleId, { enabled: true });
    expect((await records.remove(first)).body.error_msg).toBe('');
    expect((await records.remove(second)).body.error_msg).toBe('');
    const bin = await records.binTotal();
    refused(await records.restore(first));
    const batch = await records.restoreMany([second, first]);
    refused(batch);
    expect(batch.body.error_msg).toContain(`record "${first}"`);
    expect(await records.binTotal()).toBe(bin);
    expect((await records.restore(second)).body.error_msg).toBe('');
    expect(await records.binTotal()).toBe(bin - 1);
  });

  it('does not enforce a disabled rule, and enforces it again once enabled', async () => {
    await rules.update(ruleId, { enabled: false });
    const created = await records.create(item('While disabled', 5000));
    expect(created.body.error_msg).toBe('');
    await rules.update(ruleId, { enabled: true });
    refused(await records.create(item('While enabled', 5000)));
    refused(await records.update(created.body.data.id, [{ id: 'title', value: 'Renamed' }]));
    await rules.update(ruleId, { enabled: false });
    expect((await records.update(created.body.data.id, [{ id: 'amount', value: 1 }])).body.error_msg).toBe('');
    await rules.update(ruleId, { enabled: true });
  });

  it('checks computed values as the write leaves them (a formula over the written field)', async () => {
    const formulaRule = await rules.add({ name: 'Double', condition: { type: 'condition', field: 'double', operator: 'ge', value: 200 }, message: 'Double too high' });
    refused(await records.create(item('Formula big', 100)), 'Double too high');
    const id = await createRecord(ctx, sheet, item('Formula small', 99));
    refused(await records.update(id, [{ id: 'amount', value: 150 }]), 'Double too high');
    expect(await amountOf(id)).toBe('99');
    await rules.remove(formulaRule);
    expect((await records.update(id, [{ id: 'amount', value: 150 }])).body.error_msg).toBe('');
  });

  it('checks every enabled rule: the first in order that matches answers', async () => {
    const titled = await rules.add({ name: 'No drafts', condition: { type: 'condition', field: 'title', operator: 'startswith', value: 'draft' }, message: 'Titles may not start with draft' });
    refused(await records.create(item('Draft one', 1)), 'Titles may not start with draft');
    const both = await records.create(item('Draft two', 5000));
    refused(both, MESSAGE);
    await rules.remove(titled);
    expect((await records.create(item('Draft three', 1))).body.error_msg).toBe('');
  });
});

describeApi('business rules: dates at the write, and fields deleted since', (ctx) => {
  let sheet: Sheet;
  const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;

  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Rules dated', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Due', alias: 'due', type: '15' },
      { name: 'Notes', alias: 'notes', type: '2' },
    ]);
  });

  it('resolves a dynamic date at the time of the write', async () => {
    const rule = await ctx.call<Rule>('POST', `/v3/app/worksheets/${sheet.id}/rules`, { name: 'No past', condition: { type: 'condition', field: 'due', operator: 'lt', value: 'today' }, message: 'The due date is in the past' });
    expect(rule.body.error_msg).toBe('');
    const past = await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'Late' }, { id: 'due', value: '2001-02-03' }] });
    expect(past.body).toMatchObject({ error_code: 430021, error_msg: 'The due date is in the past' });
    expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'Later' }, { id: 'due', value: '2999-02-03' }] })).body.error_msg).toBe('');
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rules/${rule.body.data.id}`)).body.error_msg).toBe('');
  });

  it('no longer checks a rule whose field was deleted, and lists it with the problem', async () => {
    const rule = await ctx.call<Rule & { problem: string }>('POST', `/v3/app/worksheets/${sheet.id}/rules`, { name: 'Notes', condition: { type: 'condition', field: 'notes', operator: 'eq', value: 'bad' }, message: 'Bad notes' });
    expect(rule.body.error_msg).toBe('');
    expect(rule.body.data.problem).toBe('');
    expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'A' }, { id: 'notes', value: 'bad' }] })).body.error_code).toBe(430021);
    const removed = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { removeFields: [sheet.field.notes] });
    expect(removed.body.error_msg).toBe('');
    expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'B' }] })).body.error_msg).toBe('');
    const listed = await ctx.call<{ rules: Array<Rule & { problem: string }> }>('GET', `/v3/app/worksheets/${sheet.id}/rules`);
    expect(listed.body.data.rules.map((r) => r.id)).toEqual([rule.body.data.id]);
    expect(listed.body.data.rules[0].problem).toMatch(/^condition.*no field/);
  });
});

describeApi('business rules: drafts and the other side of relations', (ctx) => {
  let customers: Sheet;
  let orders: Sheet;
  let reverseId: string;
  let closed: string;
  let open: string;

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Rule customers', [
      { name: 'Name', alias: 'title', type: '2', isTitle: true },
      { name: 'City', alias: 'city', type: '2' },
    ]);
    orders = await makeSheet(ctx, 'Rule orders', [
      { name: 'Order', alias: 'title', type: '2', isTitle: true, required: true },
      { name: 'Amount', alias: 'amount', type: '6' },
      { name: 'Customer', alias: 'customer', type: 'Relation', subType: 1, dataSource: customers.id, relation: { bidirectional: true } },
    ]);
    const fields = (await ctx.call<{ fields: Array<{ id: string; type: string }> }>('GET', `/v3/app/worksheets/${customers.id}`)).body.data.fields;
    reverseId = fields.find((f) => f.type === '29')!.id;
    closed = await createRecord(ctx, customers, [{ id: 'title', value: 'Closed Ltd' }, { id: 'city', value: 'Closed' }]);
    open = await createRecord(ctx, customers, [{ id: 'title', value: 'Open Ltd' }, { id: 'city', value: 'Paris' }]);
    const rule = await ctx.call('POST', `/v3/app/worksheets/${customers.id}/rules`, {
      name: 'Closed customers take no orders',
      condition: { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'city', operator: 'eq', value: 'Closed' }, { type: 'condition', field: reverseId, operator: 'isnotempty' }] },
      message: 'This customer is closed',
    });
    expect(rule.body.error_msg).toBe('');
    const amountRule = await ctx.call('POST', `/v3/app/worksheets/${orders.id}/rules`, { name: 'Big', condition: { type: 'condition', field: 'amount', operator: 'gt', value: 1000 }, message: MESSAGE });
    expect(amountRule.body.error_msg).toBe('');
  });

  it('refuses a write whose reverse-side change leaves a related record matching, writing nothing', async () => {
    const rows = `/v3/app/worksheets/${orders.id}/rows`;
    const before = (await ctx.call<{ total: number }>('POST', `${rows}/list`, { pageSize: 1 })).body.data.total;
    const response = await ctx.call('POST', rows, { fields: [{ id: 'title', value: 'O-1' }, { id: 'customer', value: [closed] }] });
    expect(response.status).toBe(400);
    expect(response.body.error_code).toBe(430021);
    expect(response.body.error_msg).toContain('This customer is closed');
    expect((await ctx.call<{ total: number }>('POST', `${rows}/list`, { pageSize: 1 })).body.data.total).toBe(before);
    expect(valueOf(await readRecord(ctx, customers, closed), reverseId)).toEqual([]);
    expect((await ctx.call('POST', rows, { fields: [{ id: 'title', value: 'O-2' }, { id: 'customer', value: [open] }] })).body.error_msg).toBe('');
  });

  it('lets a matching draft be saved, and refuses to submit it while it matches, keeping the draft', async () => {
    const rows = `/v3/app/worksheets/${orders.id}/rows`;
    const draft = await ctx.call<{ id: string }>('POST', rows, { fields: [{ id: 'title', value: 'Draft' }, { id: 'amount', value: 5000 }], isDraft: true });
    expect(draft.body.error_msg).toBe('');
    const id = draft.body.data.id;
    const submitted = await ctx.call('POST', `${rows}/${id}/submit`);
    expect(submitted.status).toBe(400);
    expect(submitted.body.error_code).toBe(430021);
    expect(submitted.body.error_msg).toBe(MESSAGE);
    expect((await ctx.call('GET', `${rows}/${id}`)).body.data).toMatchObject({ id, isDraft: true });
    expect((await ctx.call('PATCH', `${rows}/${id}`, { fields: [{ id: 'amount', value: 50 }] })).body.error_msg).toBe('');
    expect((await ctx.call('POST', `${rows}/${id}/submit`)).body.error_msg).toBe('');
  });
});

describeApi('business rules: sub-table rows and rollups over them', (ctx) => {
  let invoices: Sheet;
  let child: string;

  beforeAll(async () => {
    invoices = await makeSheet(ctx, 'Rule invoices', [
      { name: 'Invoice', alias: 'title', type: '2', isTitle: true },
      { name: 'Lines', alias: 'lines', type: 'SubTable', config: { fields: [{ name: 'Item', alias: 'item', type: 'Text' }, { name: 'Qty', alias: 'qty', type: 'Number' }] } },
    ]);
    const got = await ctx.call<{ fields: Array<{ id: string; dataSource?: string }> }>('GET', `/v3/app/worksheets/${invoices.id}`);
    child = got.body.data.fields.find((f) => f.id === invoices.field.lines)!.dataSource!;
    const added = await ctx.call('POST', `/v3/app/worksheets/${invoices.id}`, { addFields: [{ name: 'Units', alias: 'units', type: 'Rollup', config: { relationField: 'lines', sourceField: 'qty', aggregation: 'SUM' } }] });
    expect(added.body.error_msg).toBe('');
    const lineRule = await ctx.call('POST', `/v3/app/worksheets/${child}/rules`, { name: 'Line', condition: { type: 'condition', field: 'qty', operator: 'gt', value: 100 }, message: 'A line holds at most 100' });
    expect(lineRule.body.error_msg).toBe('');
    const totalRule = await ctx.call('POST', `/v3/app/worksheets/${invoices.id}/rules`, { name: 'Total', condition: { type: 'condition', field: 'units', operator: 'gt', value: 150 }, message: 'An invoice holds at most 150 units' });
    expect(totalRule.body.error_msg).toBe('');
  });

  const write = (lines: number[]) =>
    ctx.call('POST', `/v3/app/worksheets/${invoices.id}/rows`, { fields: [{ id: 'title', value: 'INV' }, { id: 'lines', value: lines.map((qty) => [{ id: 'item', value: 'x' }, { id: 'qty', value: qty }]) }] });
  const childTotal = async () => (await ctx.call<{ total: number }>('POST', `/v3/app/worksheets/${child}/rows/list`, { pageSize: 1 })).body.data.total;

  it("checks a child row against the child worksheet's rules, and the parent's rollup against the parent's, writing nothing", async () => {
    const before = await childTotal();
    const line = await write([5, 500]);
    expect(line.body.error_code).toBe(430021);
    expect(line.body.error_msg).toContain('A line holds at most 100');
    const total = await write([100, 60]);
    expect(total.body.error_code).toBe(430021);
    expect(total.body.error_msg).toBe('An invoice holds at most 150 units');
    expect(await childTotal()).toBe(before);
    expect((await write([100, 50])).body.error_msg).toBe('');
    expect(await childTotal()).toBe(before + 2);
  });
});

describeApi('business rules: records whose rollups another record changes', (ctx) => {
  let budgets: Sheet;
  let spends: Sheet;
  let budget: string;

  beforeAll(async () => {
    budgets = await makeSheet(ctx, 'Rule budgets', [{ name: 'Budget', alias: 'title', type: '2', isTitle: true }]);
    spends = await makeSheet(ctx, 'Rule spends', [
      { name: 'Spend', alias: 'title', type: '2', isTitle: true },
      { name: 'Amount', alias: 'amount', type: '6' },
      { name: 'Budget', alias: 'budget', type: '29', subType: 1, dataSource: budgets.id, relation: { bidirectional: true } },
    ]);
    const got = await ctx.call<{ fields: Array<{ id: string; name: string }> }>('GET', `/v3/app/worksheets/${budgets.id}`);
    const reverse = got.body.data.fields.find((f) => f.name === 'Rule spends')!.id;
    const added = await ctx.call('POST', `/v3/app/worksheets/${budgets.id}`, {
      addFields: [
        { name: 'Spent', alias: 'spent', type: 'Rollup', config: { relationField: reverse, sourceField: 'amount', aggregation: 'SUM' } },
        { name: 'Lines', alias: 'lines', type: 'Rollup', config: { relationField: reverse, aggregation: 'count' } },
      ],
    });
    expect(added.body.error_msg).toBe('');
    const fields = await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${budgets.id}`);
    budgets.field = Object.fromEntries(fields.body.data.fields.map((f) => [f.alias, f.id]));
    const rule = await ctx.call('POST', `/v3/app/worksheets/${budgets.id}/rules`, { name: 'Cap', condition: { type: 'condition', field: 'spent', operator: 'gt', value: 100 }, message: 'The budget is spent' });
    expect(rule.body.error_msg).toBe('');
    budget = await createRecord(ctx, budgets, [{ id: 'title', value: 'Travel' }]);
  });

  const spendRows = () => `/v3/app/worksheets/${spends.id}/rows`;
  const spend = (title: string, amount: number) => ctx.call<{ id: string }>('POST', spendRows(), { fields: [{ id: 'title', value: title }, { id: 'amount', value: amount }, { id: 'budget', value: [budget] }] });
  const spent = async () => Number(valueOf(await readRecord(ctx, budgets, budget), budgets.field.spent));
  const spendCount = async () => (await ctx.call<{ total: number }>('POST', `${spendRows()}/list`, { pageSize: 1 })).body.data.total;

  it('refuses creating, changing and restoring a record that pushes a related record over a rule, writing nothing', async () => {
    const first = await spend('Train', 60);
    expect(first.body.error_msg).toBe('');
    const over = await spend('Hotel', 50);
    expect(over.status).toBe(400);
    expect(over.body.error_code).toBe(430021);
    expect(over.body.error_msg).toBe(`record "${budget}" of worksheet "Rule budgets", whose relation this write changes: The budget is spent`);
    expect(await spendCount()).toBe(1);
    expect(await spent()).toBe(60);

    const second = await spend('Taxi', 30);
    expect(second.body.error_msg).toBe('');
    const raised = await ctx.call('PATCH', `${spendRows()}/${second.body.data.id}`, { fields: [{ id: 'amount', value: 45 }] });
    expect(raised.body.error_code).toBe(430021);
    expect(await spent()).toBe(90);

    expect((await ctx.call('DELETE', `${spendRows()}/${second.body.data.id}`)).body.error_msg).toBe('');
    expect(await spent()).toBe(60);
    expect((await spend('Bus', 35)).body.error_msg).toBe('');
    const restored = await ctx.call('POST', `${spendRows()}/${second.body.data.id}/restore`);
    expect(restored.body.error_code).toBe(430021);
    expect(await spent()).toBe(95);
    expect((await ctx.call<{ total: number }>('POST', `${spendRows()}/list`, { pageSize: 1, recycleBin: true })).body.data.total).toBe(1);
  });

  it('refuses deleting a record when the related record would then match a rule', async () => {
    const floor = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${budgets.id}/rules`, { name: 'Floor', condition: { type: 'condition', field: 'lines', operator: 'lt', value: 1 }, message: 'A budget keeps one line at least' });
    expect(floor.body.error_msg).toBe('');
    const listed = await ctx.call<{ rows: Array<{ id: string }> }>('POST', `${spendRows()}/list`, { pageSize: 10 });
    const ids = listed.body.data.rows.map((r) => r.id);
    expect(ids).toHaveLength(2);
    expect((await ctx.call('DELETE', `${spendRows()}/${ids[0]}`)).body.error_msg).toBe('');
    const last = await ctx.call('DELETE', `${spendRows()}/${ids[1]}`);
    expect(last.body.error_code).toBe(430021);
    expect(last.body.error_msg).toContain('A budget keeps one line at least');
    expect(await spendCount()).toBe(1);
    expect((await ctx.call('DELETE', `/v3/app/worksheets/${budgets.id}/rules/${floor.body.data.id}`)).body.error_msg).toBe('');
  });
});
