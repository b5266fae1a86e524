import { beforeAll, describe, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

interface LogItem { id: string; name: string; type: number; editType: number; oldValue: string; oldText: string; newValue: string; newText: string; isDeleted: boolean }
interface Log {
  operator: { accountId: string; fullname: string };
  content: { worksheetId: string; objectId: string; uniqueId: string; objectType: number; type: number; requestType: number; _createdAt: string; logData: LogItem[] };
}
interface LogPage { logs: Log[]; total: number; lastMark: string; flag: boolean }

/** Every change to a record leaves one entry in its log, in the change's transaction, readable through `GET …/rows/{id}/logs`. */
const START = Date.parse('2026-03-10T08:00:00Z');
let clockNow = START;

describeApi(
  'records: the record log',
  (ctx) => {
    let customers: Sheet;
    let orders: Sheet;
    const rows = (sheet: Sheet) => `/v3/app/worksheets/${sheet.id}/rows`;
    const logsOf = async (sheet: Sheet, id: string, query = '') => ctx.call<LogPage>('GET', `${rows(sheet)}/${id}/logs${query}`);
    const pageOf = async (sheet: Sheet, id: string, query = '') => {
      const got = await logsOf(sheet, id, query);
      expect(got.body.error_msg).toBe('');
      return got.body.data;
    };

    beforeAll(async () => {
      // Each engine's block starts from the same time (the previous block moved the clock on).
      clockNow = START;
      customers = await makeSheet(ctx, 'Customers', [
        { name: 'Name', alias: 'title', type: '2', isTitle: true },
        { name: 'Code', alias: 'code', type: '2', isUnique: true },
      ]);
      orders = await makeSheet(ctx, 'Orders', [
        { name: 'Order', alias: 'title', type: '2', isTitle: true },
        { name: 'Amount', alias: 'amount', type: '6' },
        { name: 'Status', alias: 'status', type: '9', options: [{ value: 'Open' }, { value: 'Paid' }] },
        { name: 'Owner', alias: 'who', type: '26' },
        { name: 'Customers', alias: 'customers', type: '29', subType: 2, dataSource: customers.id },
      ]);
    });

    it('logs a create with the values given, the operator, the source and the time', async () => {
      clockNow = START;
      const id = await createRecord(ctx, orders, [{ id: 'title', value: 'O-1' }, { id: 'amount', value: 12.5 }, { id: 'status', value: 'Open' }, { id: 'who', value: [ctx.setup.owner.accountId] }]);
      const page = await pageOf(orders, id);
      expect(page.total).toBe(1);
      expect(page.flag).toBe(false);
      const [log] = page.logs;
      expect(log.operator).toMatchObject({ accountId: 'user-api', fullname: 'API' });
      expect(log.content).toMatchObject({ worksheetId: orders.id, objectId: id, objectType: 2, type: 1, requestType: 1, _createdAt: new Date(START).toISOString() });
      const byField = new Map(log.content.logData.map((item) => [item.id, item]));
      expect([...byField.keys()].sort()).toEqual([orders.field.title, orders.field.amount, orders.field.status, orders.field.who].sort());
      expect(byField.get(orders.field.title)).toMatchObject({ name: 'Order', type: 2, editType: 0, oldValue: '', newValue: 'O-1', newText: 'O-1', isDeleted: false });
      expect(byField.get(orders.field.amount)).toMatchObject({ type: 6, newText: '12.5' });
      expect(byField.get(orders.field.status)?.newText).toBe('Open');
      expect(byField.get(orders.field.who)?.newValue).toContain(ctx.setup.owner.accountId);
      expect(byField.get(orders.field.who)?.newText).not.toBe('');
    });

    it('logs an update as the fields that changed, from what to what; writing the same values logs nothing', async () => {
      clockNow = START;
      const id = await createRecord(ctx, orders, [{ id: 'title', value: 'O-2' }, { id: 'status', value: 'Open' }]);
      clockNow = START + 60_000;
      const changed = await ctx.call('PATCH', `${rows(orders)}/${id}`, { fields: [{ id: 'status', value: 'Paid' }, { id: 'title', value: 'O-2' }] });
      expect(changed.body.error_msg).toBe('');
      const page = await pageOf(orders, id);
      expect(page.total).toBe(2);
      const [latest] = page.logs;
      expect(latest.content.requestType).toBe(2);
      expect(latest.content._createdAt).toBe(new Date(START + 60_000).toISOString());
      expect(latest.content.logData).toHaveLength(1);
      expect(latest.content.logData[0]).toMatchObject({ id: orders.field.status, name: 'Status', oldText: 'Open', newText: 'Paid' });
      const same = await ctx.call('PATCH', `${rows(orders)}/${id}`, { fields: [{ id: 'status', value: 'Paid' }] });
      expect(same.body.error_msg).toBe('');
      expect((await pageOf(orders, id)).total).toBe(2);
    });

    it('writes one entry per record of a batch', async () => {
      const made = await ctx.call<{ rowIds: string[] }>('POST', `${rows(orders)}/batch`, { rows: [{ fields: [{ id: 'title', value: 'B-1' }] }, { fields: [{ id: 'title', value: 'B-2' }] }] });
      expect(made.body.error_msg).toBe('');
      const updated = await ctx.call('PATCH', `${rows(orders)}/batch`, { rowIds: made.body.data.rowIds, fields: [{ id: 'amount', value: 3 }] });
      expect(updated.body.error_msg).toBe('');
      for (const id of made.body.data.rowIds) {
        const page = await pageOf(orders, id);
        expect(page.logs.map((l) => l.content.requestType)).toEqual([2, 1]);
        expect(page.logs[0].content.logData[0]).toMatchObject({ id: orders.field.amount, oldValue: '', newValue: '3' });
      }
    });

    it('logs relation changes as the records added and removed, with their titles', async () => {
      const ada = await createRecord(ctx, customers, [{ id: 'title', value: 'Ada' }]);
      const bob = await createRecord(ctx, customers, [{ id: 'title', value: 'Bob' }]);
      const id = await createRecord(ctx, orders, [{ id: 'title', value: 'R-1' }, { id: 'customers', value: [ada] }]);
      const swapped = await ctx.call('PATCH', `${rows(orders)}/${id}`, { fields: [{ id: 'customers', value: [bob] }] });
      expect(swapped.body.error_msg).toBe('');
      const page = await pageOf(orders, id);
      const created = page.logs[1].content.logData.find((item) => item.id === orders.field.customers);
      expect(created).toMatchObject({ editType: 1, newValue: JSON.stringify([ada]), newText: 'Ada' });
      const items = page.logs[0].content.logData;
      expect(items).toHaveLength(2);
      expect(items.find((item) => item.editType === 1)).toMatchObject({ newValue: JSON.stringify([bob]), newText: 'Bob' });
      expect(items.find((item) => item.editType === 2)).toMatchObject({ oldValue: JSON.stringify([ada]), oldText: 'Ada' });
    });

    it('logs the reverse side of a two-way relation on the related records, one entry each', async () => {
      const people = await makeSheet(ctx, 'People', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
      const tasks = await makeSheet(ctx, 'Tasks', [
        { name: 'Task', alias: 'title', type: '2', isTitle: true },
        { name: 'Assignees', alias: 'assignees', type: '29', subType: 2, dataSource: people.id, relation: { bidirectional: true } },
      ]);
      const schema = await ctx.call<{ fields: Array<{ id: string; relation?: { reverseField?: string } }> }>('GET', `/v3/app/worksheets/${tasks.id}`);
      const reverse = schema.body.data.fields.find((f) => f.id === tasks.field.assignees)?.relation?.reverseField;
      expect(reverse).toBeTypeOf('string');
      const ann = await createRecord(ctx, people, [{ id: 'title', value: 'Ann' }]);
      const ben = await createRecord(ctx, people, [{ id: 'title', value: 'Ben' }]);
      const task = await createRecord(ctx, tasks, [{ id: 'title', value: 'Paint' }, { id: 'assignees', value: [ann] }]);
      const annLog = await pageOf(people, ann);
      expect(annLog.logs.map((l) => l.content.requestType)).toEqual([2, 1]);
      expect(annLog.logs[0].content.logData).toEqual([expect.objectContaining({ id: reverse, editType: 1, newValue: JSON.stringify([task]), newText: 'Paint' })]);
      const moved = await ctx.call('PATCH', `/v3/app/worksheets/${tasks.id}/rows/${task}`, { fields: [{ id: 'assignees', value: [ben] }] });
      expect(moved.body.error_msg).toBe('');
      expect((await pageOf(people, ann)).logs[0].content.logData).toEqual([expect.objectContaining({ id: reverse, editType: 2, oldValue: JSON.stringify([task]), oldText: 'Paint' })]);
      expect((await pageOf(people, ben)).logs[0].content.logData).toEqual([expect.objectContaining({ id: reverse, editType: 1, newText: 'Paint' })]);
    });

    it('logs a link taken from another record (the related record holds one) on that record and on the related record', async () => {
      const people = await makeSheet(ctx, 'Owners', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
      const cars = await makeSheet(ctx, 'Cars', [
        { name: 'Car', alias: 'title', type: '2', isTitle: true },
        { name: 'Owner', alias: 'owner', type: '29', subType: 1, dataSource: people.id, relation: { bidirectional: true } },
      ]);
      const schema = await ctx.call<{ fields: Array<{ id: string; type: string }> }>('GET', `/v3/app/worksheets/${people.id}`);
      const carsOf = schema.body.data.fields.find((f) => f.type === '29')!.id;
      const ann = await createRecord(ctx, people, [{ id: 'title', value: 'Ann' }]);
      const ben = await createRecord(ctx, people, [{ id: 'title', value: 'Ben' }]);
      const car = await createRecord(ctx, cars, [{ id: 'title', value: 'Volvo' }, { id: 'owner', value: [ann] }]);
      // Ben takes the car from his side: the car holds one owner, so Ann loses it.
      const taken = await ctx.call('PATCH', `/v3/app/worksheets/${people.id}/rows/${ben}`, { fields: [{ id: carsOf, value: [car], type: 1 }] });
      expect(taken.body.error_msg).toBe('');
      expect((await pageOf(people, ann)).logs[0].content.logData).toEqual([expect.objectContaining({ id: carsOf, editType: 2, oldValue: JSON.stringify([car]), oldText: 'Volvo' })]);
      expect((await pageOf(people, ben)).logs[0].content.logData).toEqual([expect.objectContaining({ id: carsOf, editType: 1, newText: 'Volvo' })]);
      const carLog = (await pageOf(cars, car)).logs[0].content.logData;
      expect(carLog.find((item) => item.editType === 1)).toMatchObject({ id: cars.field.owner, newValue: JSON.stringify([ben]), newText: 'Ben' });
      expect(carLog.find((item) => item.editType === 2)).toMatchObject({ id: cars.field.owner, oldValue: JSON.stringify([ann]), oldText: 'Ann' });
    });

    it('logs a draft only when it is submitted, as a create', async () => {
      const draft = await ctx.call<{ id: string }>('POST', rows(orders), { isDraft: true, fields: [{ id: 'title', value: 'D-1' }] });
      expect(draft.body.error_msg).toBe('');
      const id = draft.body.data.id;
      expect((await logsOf(orders, id)).body.error_code).toBe(10007);
      expect((await ctx.database.db.selectFrom('record_logs').select('seq').where('row_id', '=', id).execute())).toEqual([]);
      expect((await ctx.call('POST', `${rows(orders)}/${id}/submit`)).body.error_msg).toBe('');
      const page = await pageOf(orders, id);
      expect(page.logs.map((l) => l.content.requestType)).toEqual([1]);
      expect(page.logs[0].content.logData.find((item) => item.id === orders.field.title)?.newValue).toBe('D-1');
    });

    it('keeps the log through the recycle bin and a restore, and removes it with the record for good', async () => {
      const id = await createRecord(ctx, customers, [{ id: 'title', value: 'Gone' }]);
      expect((await ctx.call('DELETE', `${rows(customers)}/${id}`)).body.error_msg).toBe('');
      expect((await pageOf(customers, id)).logs.map((l) => l.content.requestType)).toEqual([3, 1]);
      expect((await ctx.call('POST', `${rows(customers)}/${id}/restore`)).body.error_msg).toBe('');
      expect((await pageOf(customers, id)).logs.map((l) => l.content.requestType)).toEqual([4, 3, 1]);
      expect((await ctx.call('DELETE', `${rows(customers)}/batch`, { rowIds: [id], permanent: true })).body.error_msg).toBe('');
      const after = await logsOf(customers, id);
      expect(after.body.error_code).toBe(10007);
      const left = await ctx.database.db.selectFrom('record_logs').select('seq').where('row_id', '=', id).execute();
      expect(left).toEqual([]);
    });

    it('writes no entry for a write that fails', async () => {
      const first = await createRecord(ctx, customers, [{ id: 'title', value: 'U1' }, { id: 'code', value: 'DUP' }]);
      const other = await createRecord(ctx, customers, [{ id: 'title', value: 'U2' }]);
      const clash = await ctx.call('PATCH', `${rows(customers)}/${other}`, { fields: [{ id: 'code', value: 'DUP' }] });
      expect(clash.body.error_code).toBe(100005);
      expect((await pageOf(customers, other)).total).toBe(1);
      expect((await pageOf(customers, first)).total).toBe(1);
    });

    describe('reading', () => {
      let id: string;
      beforeAll(async () => {
        clockNow = Date.parse('2026-03-11T01:00:00Z');
        id = await createRecord(ctx, orders, [{ id: 'title', value: 'P-0' }]);
        for (let i = 1; i <= 4; i++) {
          clockNow = Date.parse(`2026-03-1${1 + i}T01:00:00Z`);
          const edit = await ctx.call('PATCH', `${rows(orders)}/${id}`, { fields: [{ id: i % 2 === 0 ? 'amount' : 'title', value: i % 2 === 0 ? i : `P-${i}` }] });
          expect(edit.body.error_msg).toBe('');
        }
      });

      it('pages newest first by pageIndex, and by lastMark', async () => {
        const first = await pageOf(orders, id, '?pageSize=2');
        expect(first.total).toBe(5);
        expect(first.flag).toBe(true);
        expect(first.logs.map((l) => l.content._createdAt)).toEqual(['2026-03-15T01:00:00.000Z', '2026-03-14T01:00:00.000Z']);
        const second = await pageOf(orders, id, '?pageSize=2&pageIndex=2');
        expect(second.logs.map((l) => l.content._createdAt)).toEqual(['2026-03-13T01:00:00.000Z', '2026-03-12T01:00:00.000Z']);
        const continued = await pageOf(orders, id, `?pageSize=2&lastMark=${first.lastMark}`);
        expect(continued.logs.map((l) => l.content.uniqueId)).toEqual(second.logs.map((l) => l.content.uniqueId));
        const last = await pageOf(orders, id, '?pageSize=2&pageIndex=3');
        expect(last.logs.map((l) => l.content.requestType)).toEqual([1]);
        expect(last.flag).toBe(false);
        // The create entry (implied by the record) is reached by the cursor too, and is the end.
        const toCreate = await pageOf(orders, id, `?pageSize=2&lastMark=${second.lastMark}`);
        expect(toCreate.logs.map((l) => l.content.requestType)).toEqual([1]);
        expect(toCreate.flag).toBe(false);
        expect((await pageOf(orders, id, `?lastMark=${toCreate.lastMark}`)).logs).toEqual([]);
      });

      it('filters by field, operator and dates', async () => {
        const amounts = await pageOf(orders, id, '?field=amount');
        expect(amounts.total).toBe(2);
        expect(amounts.logs.every((l) => l.content.logData.some((item) => item.id === orders.field.amount))).toBe(true);
        expect((await pageOf(orders, id, '?operatorIds=user-api')).total).toBe(5);
        expect((await pageOf(orders, id, '?opeartorIds=someone-else')).total).toBe(0);
        expect((await pageOf(orders, id, '?operatorIds[]=someone-else&operatorIds[]=user-api')).total).toBe(5);
        // Days in TIME_ZONE (UTC here): the 12th to the 13th, whole days.
        const days = await pageOf(orders, id, `?startDate=${encodeURIComponent('2026-03-12 00:00:00')}&endDate=2026-03-13`);
        expect(days.logs.map((l) => l.content._createdAt)).toEqual(['2026-03-13T01:00:00.000Z', '2026-03-12T01:00:00.000Z']);
        expect((await pageOf(orders, id, '?startDate=2026-03-14T00:00:00Z')).total).toBe(2);
      });

      it('refuses bad dates, unknown fields and unknown records with errors that name them', async () => {
        const badDate = await logsOf(orders, id, '?startDate=yesterday-ish');
        expect(badDate.body.error_code).toBe(10002);
        expect(badDate.body.error_msg).toContain('startDate');
        const reversed = await logsOf(orders, id, '?startDate=2026-03-14&endDate=2026-03-12');
        expect(reversed.body.error_msg).toContain('after endDate');
        const field = await logsOf(orders, id, '?field=nope');
        expect(field.body.error_code).toBe(10002);
        expect(field.body.error_msg).toContain('"nope"');
        const mark = await logsOf(orders, id, '?lastMark=abc');
        expect(mark.body.error_msg).toContain('lastMark');
        const missing = await logsOf(orders, 'no-such-record');
        expect(missing.body.error_code).toBe(10007);
      });
    });

    it('writes nothing for a worksheet whose log is switched off, and logs again when switched on', async () => {
      const quiet = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Quiet', recordLogs: false, fields: [{ name: 'Name', alias: 'title', type: '2', isTitle: true }] });
      expect(quiet.body.error_msg).toBe('');
      const sheet: Sheet = { id: quiet.body.data.worksheetId, field: {} };
      const shown = await ctx.call<{ recordLogs: boolean }>('GET', `/v3/app/worksheets/${sheet.id}`);
      expect(shown.body.data.recordLogs).toBe(false);
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'silent' }]);
      expect((await pageOf(sheet, id)).total).toBe(0);
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { recordLogs: true })).body.error_msg).toBe('');
      expect((await ctx.call('PATCH', `${rows(sheet)}/${id}`, { fields: [{ id: 'title', value: 'heard' }] })).body.error_msg).toBe('');
      const page = await pageOf(sheet, id);
      expect(page.total).toBe(1);
      expect(page.logs[0].content.logData[0]).toMatchObject({ oldValue: 'silent', newValue: 'heard' });
    });

    it('shows a field removed since as deleted, under the name it had, in its changes and in the create entry', async () => {
      const sheet = await makeSheet(ctx, 'Shifting', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }, { name: 'Temp', alias: 'temp', type: '2' }]);
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'x' }, { id: 'temp', value: 'first' }]);
      expect((await ctx.call('PATCH', `${rows(sheet)}/${id}`, { fields: [{ id: 'temp', value: 'second' }] })).body.error_msg).toBe('');
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { removeFields: [sheet.field.temp] })).body.error_msg).toBe('');
      const [edit, create] = (await pageOf(sheet, id)).logs;
      expect(edit.content.logData).toEqual([expect.objectContaining({ id: sheet.field.temp, name: 'Temp', isDeleted: true, oldValue: 'first', newValue: 'second' })]);
      expect(create.content.logData.find((item) => item.id === sheet.field.temp)).toMatchObject({ name: 'Temp', isDeleted: true, newValue: 'first' });
    });

    it('shows the values a record was created with, not those it has now, through edits, relations and the recycle bin', async () => {
      const ada = await createRecord(ctx, customers, [{ id: 'title', value: 'Ada' }]);
      const bob = await createRecord(ctx, customers, [{ id: 'title', value: 'Bob' }]);
      const id = await createRecord(ctx, orders, [{ id: 'title', value: 'C-1' }, { id: 'amount', value: 1 }, { id: 'customers', value: [ada] }]);
      for (const fields of [[{ id: 'amount', value: 2 }], [{ id: 'title', value: 'C-2' }, { id: 'customers', value: [bob] }], [{ id: 'amount', value: null }, { id: 'status', value: 'Open' }]]) {
        expect((await ctx.call('PATCH', `${rows(orders)}/${id}`, { fields })).body.error_msg).toBe('');
      }
      expect((await ctx.call('DELETE', `${rows(orders)}/${id}`)).body.error_msg).toBe('');
      const page = await pageOf(orders, id);
      expect(page.logs.map((l) => l.content.requestType)).toEqual([3, 2, 2, 2, 1]);
      const created = new Map(page.logs[4].content.logData.map((item) => [item.id, item]));
      expect([...created.keys()].sort()).toEqual([orders.field.title, orders.field.amount, orders.field.customers].sort());
      expect(created.get(orders.field.title)?.newValue).toBe('C-1');
      expect(created.get(orders.field.amount)?.newValue).toBe('1');
      expect(created.get(orders.field.customers)).toMatchObject({ editType: 1, newValue: JSON.stringify([ada]), newText: 'Ada' });
      // Asked for by field, the create entry counts as a change of the fields it was given.
      expect((await pageOf(orders, id, '?field=amount')).logs.map((l) => l.content.requestType)).toEqual([2, 2, 1]);
      expect((await pageOf(orders, id, '?field=status')).logs.map((l) => l.content.requestType)).toEqual([2]);
    });

    it('shows no creation values once the log was switched off and on after the creation (they are not known)', async () => {
      clockNow = START;
      const sheet = await makeSheet(ctx, 'Gappy', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'before' }]);
      const other = () => ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { recordLogs: false });
      expect((await other()).body.error_msg).toBe('');
      expect((await ctx.call('PATCH', `${rows(sheet)}/${id}`, { fields: [{ id: 'title', value: 'unlogged' }] })).body.error_msg).toBe('');
      clockNow = START + 1_000;
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { recordLogs: true })).body.error_msg).toBe('');
      const page = await pageOf(sheet, id);
      expect(page.logs.map((l) => l.content.requestType)).toEqual([1]);
      expect(page.logs[0].content.logData).toEqual([]);
      clockNow = START + 2_000;
      const fresh = await createRecord(ctx, sheet, [{ id: 'title', value: 'after' }]);
      expect((await pageOf(sheet, fresh)).logs[0].content.logData).toEqual([expect.objectContaining({ id: sheet.field.title, newValue: 'after' })]);
    });
  },
  {},
  { clock: () => clockNow },
);

