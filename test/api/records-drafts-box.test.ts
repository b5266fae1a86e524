import { expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * The draft box: listed with `POST …/rows/list {isDraft: true}`, paged in creation order; capped at
 * `DRAFT_LIMIT` drafts per creator and worksheet (430018), also under concurrent creations; removed
 * with its worksheet. The clock advances one millisecond per reading: creation order is known.
 */
const START = Date.UTC(2026, 2, 14, 10, 0, 0);
let tick = 0;
const clock = () => START + tick++;

type Page = { rows: Array<Record<string, unknown>>; total?: number; pageIndex: number; pageSize: number };

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
  { name: 'Amount', alias: 'amount', type: '6' },
];

const rowsOf = (sheet: Sheet) => `/v3/app/worksheets/${sheet.id}/rows`;
const saveDraft = (ctx: ApiContext, sheet: Sheet, title: string) => ctx.call<{ id: string }>('POST', rowsOf(sheet), { fields: [{ id: 'title', value: title }], isDraft: true });

/** Saves drafts one after the other (asserting success) and returns their ids. */
async function fillBox(ctx: ApiContext, sheet: Sheet, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const saved = await saveDraft(ctx, sheet, `D${i}`);
    expect(saved.body.error_msg).toBe('');
    ids.push(saved.body.data.id);
  }
  return ids;
}

describeApi(
  'records: the draft box and its default limit',
  (ctx) => {
    it('lists the caller’s drafts, paged in creation order, marked isDraft, with their total', async () => {
      const sheet = await makeSheet(ctx, 'Listed', FIELDS);
      const ids = await fillBox(ctx, sheet, 3);
      const first = await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, { isDraft: true, pageSize: 2 });
      expect(first.body.error_msg).toBe('');
      expect(first.body.data).toMatchObject({ total: 3, pageIndex: 1, pageSize: 2 });
      expect(first.body.data.rows.map((r) => r.id)).toEqual(ids.slice(0, 2));
      expect(first.body.data.rows.every((r) => r.isDraft === true)).toBe(true);
      const second = await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, { isDraft: 'true', pageSize: 2, pageIndex: 2, useFieldIdAsKey: false });
      expect(second.body.data.rows).toEqual([{ id: ids[2], rowId: ids[2], title: 'D3', amount: null, isDraft: true }]);
      const md = await ctx.call<{ rows: string; total: number }>('POST', `${rowsOf(sheet)}/list`, { isDraft: true, fields: ['title'], responseFormat: 'md' });
      expect(md.body.data).toEqual({ rows: `id｜Title\n${ids[0]}｜D1\n${ids[1]}｜D2\n${ids[2]}｜D3`, total: 3, pageIndex: 1, pageSize: 50 });
      const records = await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, {});
      expect(records.body.data).toMatchObject({ rows: [], total: 0 });
    });

    it('refuses filter, search and sorts on the draft box (10001)', async () => {
      const sheet = await makeSheet(ctx, 'Unfiltered', FIELDS);
      for (const extra of [{ search: 'D1' }, { sorts: [{ field: 'title', isAsc: true }] }, { filter: { type: 'group', logic: 'AND', children: [] } }]) {
        const refused = await ctx.call('POST', `${rowsOf(sheet)}/list`, { isDraft: true, ...extra });
        expect(refused.status).toBe(400);
        expect(refused.body.error_code).toBe(10001);
        expect(refused.body.error_msg).toContain('isDraft');
      }
    });

    it('refuses isDraft on a batch create (10001), creating nothing', async () => {
      const sheet = await makeSheet(ctx, 'Batch', FIELDS);
      const refused = await ctx.call('POST', `${rowsOf(sheet)}/batch`, { rows: [{ fields: [{ id: 'title', value: 'B' }] }], isDraft: true });
      expect(refused.body).toMatchObject({ success: false, error_code: 10001 });
      expect(refused.body.error_msg).toContain('isDraft');
      expect((await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, {})).body.data.total).toBe(0);
      expect((await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, { isDraft: true })).body.data.total).toBe(0);
    });

    it('holds 10 drafts per worksheet by default: the 11th is 430018; a submit or a discard frees a place', async () => {
      const sheet = await makeSheet(ctx, 'Capped', FIELDS);
      const ids = await fillBox(ctx, sheet, 10);
      const refused = await saveDraft(ctx, sheet, 'D11');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, error_code: 430018, data: null });
      expect(refused.body.error_msg).toContain('at most 10 drafts');
      expect((await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, { isDraft: true })).body.data.total).toBe(10);
      // Another worksheet has a box of its own.
      const other = await makeSheet(ctx, 'Other box', FIELDS);
      expect((await saveDraft(ctx, other, 'elsewhere')).body.error_msg).toBe('');
      expect((await ctx.call('POST', `${rowsOf(sheet)}/${ids[0]}/submit`)).body.error_msg).toBe('');
      expect((await saveDraft(ctx, sheet, 'D11')).body.error_msg).toBe('');
      expect((await saveDraft(ctx, sheet, 'D12')).body.error_code).toBe(430018);
      expect((await ctx.call('DELETE', `${rowsOf(sheet)}/${ids[1]}`)).body.error_msg).toBe('');
      expect((await saveDraft(ctx, sheet, 'D12')).body.error_msg).toBe('');
    });

    it('keeps the limit under concurrent creations: of 16 at once into an empty box, exactly 10 are saved', async () => {
      const sheet = await makeSheet(ctx, 'Raced', FIELDS);
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => saveDraft(ctx, sheet, `R${i}`)));
      const codes = answers.map((a) => a.body.error_code).sort((a, b) => a - b);
      expect(codes).toEqual([...Array(10).fill(1), ...Array(6).fill(430018)]);
      expect((await ctx.call<Page>('POST', `${rowsOf(sheet)}/list`, { isDraft: true })).body.data.total).toBe(10);
    });

    it('shows an attachment of a draft as it was sent; the file is stored when the draft is submitted', async () => {
      const sheet = await makeSheet(ctx, 'Documents', [...FIELDS, { name: 'Files', alias: 'files', type: 'Attachment' }]);
      const sent = [{ name: 'note.txt', url: `data:text/plain;base64,${Buffer.from('hello draft').toString('base64')}` }];
      const saved = await ctx.call<{ id: string }>('POST', rowsOf(sheet), { fields: [{ id: 'title', value: 'Doc' }, { id: 'files', value: sent }], isDraft: true });
      expect(saved.body.error_msg).toBe('');
      const id = saved.body.data.id;
      const draft = await ctx.call<Record<string, unknown>>('GET', `${rowsOf(sheet)}/${id}?useFieldIdAsKey=false`);
      expect(draft.body.data).toMatchObject({ isDraft: true, files: sent });
      expect(await ctx.database.db.selectFrom('files').select('id').where('row_id', '=', id).execute()).toEqual([]);
      expect((await ctx.call('POST', `${rowsOf(sheet)}/${id}/submit`)).body.error_msg).toBe('');
      const record = await ctx.call<Record<string, unknown>>('GET', `${rowsOf(sheet)}/${id}?useFieldIdAsKey=false`);
      expect(record.body.data.files).toEqual([expect.objectContaining({ name: 'note.txt', size: 11, mimeType: 'text/plain' })]);
    });

    it('removes the drafts of a deleted worksheet', async () => {
      const sheet = await makeSheet(ctx, 'Doomed', FIELDS);
      await fillBox(ctx, sheet, 2);
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}`)).body.error_msg).toBe('');
      const left = await ctx.database.db.selectFrom('record_drafts').select('id').where('worksheet_id', '=', sheet.id).execute();
      expect(left).toEqual([]);
    });
  },
  {},
  { clock },
);

describeApi(
  'records: DRAFT_LIMIT',
  (ctx) => {
    it('caps the box at the configured number', async () => {
      const sheet = await makeSheet(ctx, 'Two drafts', FIELDS);
      await fillBox(ctx, sheet, 2);
      const refused = await saveDraft(ctx, sheet, 'third');
      expect(refused.body.error_code).toBe(430018);
      expect(refused.body.error_msg).toContain('at most 2 drafts');
    });
  },
  { DRAFT_LIMIT: '2' },
);
