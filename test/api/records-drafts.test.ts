import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { rowTableName } from '../../src/modules/worksheets/worksheet-schema.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, valueOf, RECORD_TEST_FIELDS, type PivotData, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Drafts (`isDraft: true`): kept in the creator's draft box, outside the row table, so never listed,
 * counted, pivoted or numbered; read, changed and discarded by their creator only; submitted into a
 * record with the same id, checked in full. The clock is fixed: times are known, never waited for.
 */
const NOW = Date.UTC(2026, 2, 14, 10, 0, 0);
const NOW_ISO = new Date(NOW).toISOString();

type DraftRecord = WireRecord & { isDraft?: boolean };
type Page<T> = { rows: T[]; total?: number; pageIndex: number; pageSize: number };

describeApi(
  'records: drafts',
  (ctx) => {
    let customers: Sheet;
    let sheet: Sheet;
    let ada: string;
    const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
    const saveDraft = (fields: unknown[]) => ctx.call<{ id: string }>('POST', rows(), { fields, isDraft: true });
    const draftId = async (fields: unknown[]) => {
      const saved = await saveDraft(fields);
      expect(saved.body.error_msg).toBe('');
      return saved.body.data.id;
    };
    const get = (id: string, query = '') => ctx.call<DraftRecord>('GET', `${rows()}/${id}${query}`);
    const submit = (id: string) => ctx.call<{ id: string }>('POST', `${rows()}/${id}/submit`);
    const list = (body: Record<string, unknown> = {}) => ctx.call<Page<DraftRecord>>('POST', `${rows()}/list`, body);
    const box = async () => (await list({ isDraft: true })).body.data;
    const tableCount = async () => Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(rowTableName(sheet.id))}`.execute(ctx.database.db)).rows[0].n);

    beforeAll(async () => {
      customers = await makeSheet(ctx, 'Customers', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
      ada = (await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${customers.id}/rows`, { fields: [{ id: 'title', value: 'Ada' }] })).body.data.id;
      sheet = await makeSheet(ctx, 'Orders', [...RECORD_TEST_FIELDS, { name: 'Customer', alias: 'customer', type: '29', subType: 1, dataSource: customers.id }]);
    });

    it('saves a draft without its required field, outside the list, the total, the pivot and the row table', async () => {
      const pivotBody = { rows: [{ field: 'notes' }], values: [{ field: 'record_count' }] };
      const pivotBefore = (await ctx.call<PivotData>('POST', `${rows()}/pivot`, pivotBody)).body.data;
      const saved = await saveDraft([{ id: 'amount', value: 5 }, { id: 'notes', value: 'draft only' }]);
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ success: true, error_code: 1 });
      expect(Object.keys(saved.body.data)).toEqual(['id']);
      const listed = await list();
      expect(listed.body.data.total).toBe(0);
      expect(listed.body.data.rows).toEqual([]);
      const pivot = await ctx.call<PivotData>('POST', `${rows()}/pivot`, pivotBody);
      expect(pivot.body.error_msg).toBe('');
      expect(pivot.body.data).toEqual(pivotBefore);
      expect(await tableCount()).toBe(0);
      expect((await ctx.call('DELETE', `${rows()}/${saved.body.data.id}`)).body.error_msg).toBe('');
    });

    it('reads a draft by GET in the record shape, marked isDraft, with computed values empty', async () => {
      const id = await draftId([{ id: 'amount', value: '12.5' }, { id: 'customer', value: [ada] }]);
      const read = await get(id);
      expect(read.status).toBe(200);
      const draft = read.body.data;
      expect(draft).toMatchObject({ id, isDraft: true, _createdBy: { accountId: 'user-api', fullname: 'API' }, _createdAt: NOW_ISO, _updatedAt: NOW_ISO });
      expect(valueOf(draft, sheet.field.amount)).toBe('12.5');
      expect(valueOf(draft, sheet.field.customer)).toEqual([{ sid: ada, name: 'Ada' }]);
      expect(valueOf(draft, sheet.field.title)).toBeFalsy();
      expect(valueOf(draft, sheet.field.seq)).toBeFalsy();
      const flat = (await get(id, '?useFieldIdAsKey=false&includeSystemFields=true')).body.data as unknown as Record<string, unknown>;
      expect(flat).toMatchObject({ id, rowId: id, isDraft: true, amount: '12.5', _createdAt: NOW_ISO });
      expect(flat).not.toHaveProperty('autoid');
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_msg).toBe('');
    });

    it('updates a draft: the sent fields are replaced (a required one may be emptied), the others kept', async () => {
      const id = await draftId([{ id: 'title', value: 'Draft 1' }, { id: 'amount', value: 3 }]);
      const patched = await ctx.call<{ id: string }>('PATCH', `${rows()}/${id}`, { fields: [{ id: 'title', value: '' }, { id: 'notes', value: 'more' }] });
      expect(patched.body).toMatchObject({ success: true, data: { id } });
      const draft = (await get(id)).body.data;
      expect(draft.isDraft).toBe(true);
      expect(valueOf(draft, sheet.field.title)).toBeFalsy();
      expect(valueOf(draft, sheet.field.amount)).toBe('3');
      expect(valueOf(draft, sheet.field.notes)).toBe('more');
      expect(await tableCount()).toBe(0);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_msg).toBe('');
    });

    it('refuses a value of the wrong type or an unknown field, naming it, on save and on update (10002)', async () => {
      const wrong = await saveDraft([{ id: 'amount', value: 'abc' }]);
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ success: false, error_code: 10002 });
      expect(wrong.body.error_msg).toContain('"Amount"');
      const unknown = await saveDraft([{ id: 'nope', value: 1 }]);
      expect(unknown.body.error_code).toBe(10002);
      expect(unknown.body.error_msg).toContain('no field "nope"');
      const id = await draftId([{ id: 'amount', value: 1 }]);
      const badPatch = await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'amount', value: 'xyz' }] });
      expect(badPatch.body.error_code).toBe(10002);
      expect(badPatch.body.error_msg).toContain('"Amount"');
      expect(valueOf((await get(id)).body.data, sheet.field.amount)).toBe('1');
      expect((await box()).total).toBe(1);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_msg).toBe('');
    });

    it('discards a draft with DELETE: it then reads as missing (10007) and leaves the box', async () => {
      const id = await draftId([{ id: 'notes', value: 'to discard' }]);
      expect((await box()).total).toBe(1);
      const discarded = await ctx.call('DELETE', `${rows()}/${id}`);
      expect(discarded.body).toMatchObject({ success: true, data: null });
      expect((await get(id)).body.error_code).toBe(10007);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_code).toBe(10007);
      expect((await box()).total).toBe(0);
    });

    it('refuses to submit a draft whose required field is empty (430019), keeping the draft', async () => {
      const id = await draftId([{ id: 'amount', value: 7 }]);
      const refused = await submit(id);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, error_code: 430019 });
      expect(refused.body.error_msg).toContain('"Title"');
      expect((await get(id)).body.data).toMatchObject({ id, isDraft: true });
      expect(await tableCount()).toBe(0);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_msg).toBe('');
    });

    it('submits a filled-in draft: a record with the same id, listed, counted, numbered and linked; the draft is gone', async () => {
      const id = await draftId([{ id: 'amount', value: 9 }, { id: 'customer', value: [ada] }]);
      expect((await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'title', value: 'Submitted' }] })).body.error_msg).toBe('');
      const totalBefore = (await list()).body.data.total!;
      const submitted = await submit(id);
      expect(submitted.body).toMatchObject({ success: true, error_code: 1, data: { id } });
      const record = (await get(id)).body.data;
      expect(record).not.toHaveProperty('isDraft');
      expect(valueOf(record, sheet.field.title)).toBe('Submitted');
      expect(valueOf(record, sheet.field.amount)).toBe('9');
      expect(valueOf(record, sheet.field.customer)).toEqual([{ sid: ada, name: 'Ada' }]);
      expect(valueOf(record, sheet.field.seq)).toBeTruthy();
      const listed = (await list()).body.data;
      expect(listed.total).toBe(totalBefore + 1);
      expect(listed.rows.map((r) => r.id)).toContain(id);
      expect((await box()).total).toBe(0);
      const again = await submit(id);
      expect(again.body.error_code).toBe(10007);
    });

    it('refuses, keeping the draft, a submit whose unique value a record has (100005)', async () => {
      expect((await ctx.call('POST', rows(), { fields: [{ id: 'title', value: 'Holder' }, { id: 'code', value: 'U-1' }] })).body.error_msg).toBe('');
      const id = await draftId([{ id: 'title', value: 'Clash' }, { id: 'code', value: 'U-1' }]);
      const refused = await submit(id);
      expect(refused.body.error_code).toBe(100005);
      expect((await get(id)).body.data.isDraft).toBe(true);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_msg).toBe('');
    });

    it('checks related records on submit: one deleted meanwhile refuses it (10002), keeping the draft', async () => {
      const bo = (await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${customers.id}/rows`, { fields: [{ id: 'title', value: 'Bo' }] })).body.data.id;
      const id = await draftId([{ id: 'title', value: 'For Bo' }, { id: 'customer', value: [bo] }]);
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${customers.id}/rows/${bo}`)).body.error_msg).toBe('');
      const refused = await submit(id);
      expect(refused.body.error_code).toBe(10002);
      expect(refused.body.error_msg).toContain('"Customer"');
      expect((await get(id)).body.data.isDraft).toBe(true);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_msg).toBe('');
    });

    it('answers 10007 for a submit of an unknown id or of a live record', async () => {
      const unknown = await submit('0193a5b0-0000-7000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ success: false, error_code: 10007 });
      const live = (await ctx.call<{ id: string }>('POST', rows(), { fields: [{ id: 'title', value: 'Live' }] })).body.data.id;
      expect((await submit(live)).body.error_code).toBe(10007);
    });

    it("treats another creator's draft as missing: get, update, delete and submit answer 10007", async () => {
      const id = '0193a5b0-0000-7000-8000-0000000000aa';
      await ctx.database.db
        .insertInto('record_drafts')
        .values({ id, app_id: ctx.setup.app.appId, worksheet_id: sheet.id, created_by: 'someone-else', created_at: NOW, updated_at: NOW, inputs: JSON.stringify({ [sheet.field.title]: { value: 'Theirs' } }) })
        .execute();
      expect((await get(id)).body.error_code).toBe(10007);
      expect((await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'notes', value: 'mine?' }] })).body.error_code).toBe(10007);
      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_code).toBe(10007);
      expect((await submit(id)).body.error_code).toBe(10007);
      expect((await box()).rows.map((r) => r.id)).not.toContain(id);
      const kept = await ctx.database.db.selectFrom('record_drafts').select('inputs').where('id', '=', id).executeTakeFirstOrThrow();
      expect(JSON.parse(kept.inputs)).toEqual({ [sheet.field.title]: { value: 'Theirs' } });
      await ctx.database.db.deleteFrom('record_drafts').where('id', '=', id).execute();
    });
  },
  {},
  { clock: () => NOW },
);
