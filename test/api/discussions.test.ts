import { beforeAll, expect, it } from 'vitest';
import { addKey } from '../../src/modules/setup/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Discussions of records: posting (message, mentions in the text and by id, replies), the list
 * (newest first, paging, search, total), deletion, and the record's life: refused on a record that
 * is not live, kept in the recycle bin and back on restore, gone with a permanent deletion or the
 * worksheet. Files of discussions have their own file (discussion-files.test.ts).
 */

const START = Date.UTC(2026, 2, 14, 9, 0, 0);
let now = START;
const API_USER = { accountId: 'user-api', fullname: 'API', avatar: '' };

interface WireDiscussion {
  id: string;
  message: string;
  _createdAt: string;
  _createdBy: { accountId: string; fullname: string; avatar: string };
  replyToId: string | null;
  replyToAuthor: { accountId: string; fullname: string; avatar: string } | null;
  mentions: Array<{ accountId: string; fullname: string; avatar: string }>;
  attachments: unknown[];
}

/** The discussions path of a record. */
const pathOf = (sheet: Sheet, rowId: string, prefix = '/v3') => `${prefix}/app/worksheets/${sheet.id}/rows/${rowId}/discussions`;

/** Posts a discussion (asserting success) one second after the last one; returns its id. */
async function post(ctx: ApiContext, sheet: Sheet, rowId: string, body: Record<string, unknown>): Promise<string> {
  now += 1000;
  const posted = await ctx.call<{ id: string }>('POST', pathOf(sheet, rowId), body);
  expect(posted.body.error_msg).toBe('');
  return posted.body.data.id;
}

async function list(ctx: ApiContext, sheet: Sheet, rowId: string, query = '') {
  const listed = await ctx.call<{ discussions: WireDiscussion[]; total: number }>('GET', `${pathOf(sheet, rowId)}${query}`);
  expect(listed.body.error_msg).toBe('');
  return listed.body.data;
}

describeApi(
  'discussions: post, list, reply, mention, delete',
  (ctx) => {
    let sheet: Sheet;
    let ada: string;
    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Tickets', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      ada = 'a0000000-0000-4000-8000-00000000ada1';
      await ctx.database.db.insertInto('accounts').values({ id: ada, organization_id: ctx.setup.organizationId, email: 'ada@example.org', fullname: 'Ada Lovelace', password_hash: null, status: 1, created_at: START }).execute();
      await ctx.database.db.insertInto('organization_members').values({ organization_id: ctx.setup.organizationId, account_id: ada, is_admin: 0, status: 1, joined_at: START }).execute();
    });

    it('posts discussions and lists them newest first, with the author, time and total, under both prefixes', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'printer' }]);
      const first = await post(ctx, sheet, rowId, { message: '  The printer is jammed  ' });
      const firstAt = now;
      const second = await post(ctx, sheet, rowId, { message: 'Fixed it' });
      const page = await list(ctx, sheet, rowId);
      expect(page.total).toBe(2);
      expect(page.discussions.map((d) => d.id)).toEqual([second, first]);
      expect(page.discussions[1]).toEqual({
        id: first,
        message: 'The printer is jammed',
        _createdAt: new Date(firstAt).toISOString(),
        _createdBy: API_USER,
        replyToId: null,
        replyToAuthor: null,
        mentions: [],
        attachments: [],
      });
      const legacy = await ctx.call<{ discussions: WireDiscussion[] }>('GET', pathOf(sheet, rowId, '/api/v3'));
      expect(legacy.body.data.discussions.map((d) => d.id)).toEqual([second, first]);
    });

    it('pages with pageIndex and pageSize (default 20), the total counting every discussion', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'paged' }]);
      const ids: string[] = [];
      for (let i = 1; i <= 23; i++) ids.push(await post(ctx, sheet, rowId, { message: `note ${i}` }));
      const newestFirst = [...ids].reverse();
      const firstPage = await list(ctx, sheet, rowId);
      expect(firstPage.total).toBe(23);
      expect(firstPage.discussions.map((d) => d.id)).toEqual(newestFirst.slice(0, 20));
      const third = await list(ctx, sheet, rowId, '?pageIndex=3&pageSize=5');
      expect(third.discussions.map((d) => d.message)).toEqual(['note 13', 'note 12', 'note 11', 'note 10', 'note 9']);
      expect((await list(ctx, sheet, rowId, '?pageIndex=9&pageSize=5')).discussions).toEqual([]);
      for (const query of ['?pageIndex=0', '?pageSize=0', '?pageSize=1001', '?pageSize=abc']) {
        const refused = await ctx.call('GET', `${pathOf(sheet, rowId)}${query}`);
        expect(refused.status, query).toBe(400);
        expect([10001, 10002], query).toContain(refused.body.error_code);
      }
    });

    it('searches messages case-insensitively (non-ASCII letters too), literally, with the total of what matches', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'search' }]);
      await post(ctx, sheet, rowId, { message: 'Invoice 100% PAID' });
      await post(ctx, sheet, rowId, { message: 'Ärger mit der Lieferung' });
      await post(ctx, sheet, rowId, { message: 'invoice sent' });
      await post(ctx, sheet, rowId, { message: 'nothing here' });
      const invoices = await list(ctx, sheet, rowId, '?search=INVOICE');
      expect(invoices.discussions.map((d) => d.message)).toEqual(['invoice sent', 'Invoice 100% PAID']);
      expect(invoices.total).toBe(2);
      expect((await list(ctx, sheet, rowId, `?search=${encodeURIComponent('ärger')}`)).discussions.map((d) => d.message)).toEqual(['Ärger mit der Lieferung']);
      expect((await list(ctx, sheet, rowId, `?search=${encodeURIComponent('0% p')}`)).total).toBe(1);
      expect((await list(ctx, sheet, rowId, `?search=${encodeURIComponent('_')}`)).total).toBe(0);
      expect((await list(ctx, sheet, rowId, '?search=%20%20')).total).toBe(4);
      expect((await list(ctx, sheet, rowId, '?onlyWithAttachments=true')).total).toBe(0);
      const tooLong = await ctx.call('GET', `${pathOf(sheet, rowId)}?search=${'x'.repeat(5001)}`);
      expect(tooLong.body).toMatchObject({ error_code: 10002, error_msg: 'search: text to match is at most 5000 characters, got 5001' });
    });

    it('mentions members written as @[name](accountId) and in mentions, each once, shown with their names', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'mentions' }]);
      const owner = ctx.setup.owner.accountId;
      const id = await post(ctx, sheet, rowId, { message: `@[Ada](${ada}) please check with @[the owner](${owner}) and @[Ada](${ada})`, mentions: [owner, { accountId: ada }] });
      const [shown] = (await list(ctx, sheet, rowId)).discussions;
      expect(shown.id).toBe(id);
      expect(shown.mentions).toEqual([
        { accountId: ada, fullname: 'Ada Lovelace', avatar: '' },
        { accountId: owner, fullname: 'Owner', avatar: '' },
      ]);
      const byList = await post(ctx, sheet, rowId, { message: 'see this', mentions: [owner] });
      expect((await list(ctx, sheet, rowId)).discussions.find((d) => d.id === byList)!.mentions).toEqual([{ accountId: owner, fullname: 'Owner', avatar: '' }]);
    });

    it('refuses mentions of unknown accounts and mention items that are not ids (10002 naming mentions)', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'bad mentions' }]);
      const unknownInText = await ctx.call('POST', pathOf(sheet, rowId), { message: 'hi @[Nobody](no-such-account)' });
      expect(unknownInText.status).toBe(400);
      expect(unknownInText.body).toMatchObject({ error_code: 10002 });
      expect(unknownInText.body.error_msg).toBe('mentions: no active member with accountId "no-such-account" in this organization');
      const pseudo = await ctx.call('POST', pathOf(sheet, rowId), { message: 'hi', mentions: ['user-api'] });
      expect(pseudo.body.error_msg).toContain('mentions: no active member with accountId "user-api"');
      const notAnId = await ctx.call('POST', pathOf(sheet, rowId), { message: 'hi', mentions: [{ name: 'x' }] });
      expect(notAnId.body).toMatchObject({ error_code: 10002 });
      expect(notAnId.body.error_msg).toContain('mentions[0]: expected an accountId');
      const tooMany = await ctx.call('POST', pathOf(sheet, rowId), { message: 'hi', mentions: Array.from({ length: 101 }, (_, i) => `acc-${i}`) });
      expect(tooMany.body.error_msg).toBe('mentions: at most 100 members in one discussion, got 101');
      expect((await list(ctx, sheet, rowId)).total).toBe(0);
    });

    it('replies to a discussion of the same record, showing whom it answers, also after that one is deleted', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'thread' }]);
      const question = await post(ctx, sheet, rowId, { message: 'Who has the key?' });
      const answer = await post(ctx, sheet, rowId, { message: 'I do', replyToId: question });
      const noReply = await post(ctx, sheet, rowId, { message: 'unrelated', replyToId: '' });
      const shown = async (id: string) => (await list(ctx, sheet, rowId)).discussions.find((d) => d.id === id)!;
      expect(await shown(answer)).toMatchObject({ replyToId: question, replyToAuthor: API_USER });
      expect(await shown(noReply)).toMatchObject({ replyToId: null, replyToAuthor: null });
      expect((await ctx.call('DELETE', `${pathOf(sheet, rowId)}/${question}`)).body.error_msg).toBe('');
      expect(await shown(answer)).toMatchObject({ replyToId: question, replyToAuthor: API_USER });
      const toDeleted = await ctx.call('POST', pathOf(sheet, rowId), { message: 'late reply', replyToId: question });
      expect(toDeleted.body).toMatchObject({ error_code: 10002 });
      expect(toDeleted.body.error_msg).toBe(`replyToId: no discussion "${question}" on this record`);
      const other = await createRecord(ctx, sheet, [{ id: 'title', value: 'elsewhere' }]);
      const acrossRecords = await ctx.call('POST', pathOf(sheet, other), { message: 'wrong thread', replyToId: answer });
      expect(acrossRecords.body).toMatchObject({ error_code: 10002 });
      expect(acrossRecords.body.error_msg).toContain('replyToId');
    });

    it('refuses a missing, blank or over-long message, naming message', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'messages' }]);
      const missing = await ctx.call('POST', pathOf(sheet, rowId), {});
      expect(missing.status).toBe(400);
      expect(missing.body.error_code).toBe(10001);
      expect(missing.body.error_msg).toContain('message');
      const blank = await ctx.call('POST', pathOf(sheet, rowId), { message: ' \n\t ' });
      expect(blank.body).toMatchObject({ error_code: 10002, error_msg: 'message: must not be empty' });
      const long = await ctx.call('POST', pathOf(sheet, rowId), { message: 'x'.repeat(10_001) });
      expect(long.body).toMatchObject({ error_code: 10002, error_msg: 'message: at most 10000 characters, got 10001' });
      // Characters, not UTF-16 units: 10,000 emoji fit.
      expect((await ctx.call('POST', pathOf(sheet, rowId), { message: '😀'.repeat(10_000) })).body.error_msg).toBe('');
      const notText = await ctx.call('POST', pathOf(sheet, rowId), { message: { text: 'x' } });
      expect(notText.status).toBe(400);
      expect(notText.body.error_code).toBe(10001);
      expect((await list(ctx, sheet, rowId)).total).toBe(1);
    });

    it('deletes a discussion; an unknown id or a discussion of another record is 10007', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'deleting' }]);
      const other = await createRecord(ctx, sheet, [{ id: 'title', value: 'other' }]);
      const kept = await post(ctx, sheet, rowId, { message: 'kept' });
      const gone = await post(ctx, sheet, rowId, { message: 'gone' });
      const elsewhere = await post(ctx, sheet, other, { message: 'elsewhere' });
      const deleted = await ctx.call('DELETE', `${pathOf(sheet, rowId)}/${gone}`);
      expect(deleted.body).toEqual({ success: true, error_code: 1, error_msg: '', data: null });
      expect((await list(ctx, sheet, rowId)).discussions.map((d) => d.id)).toEqual([kept]);
      const again = await ctx.call('DELETE', `${pathOf(sheet, rowId)}/${gone}`);
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ error_code: 10007, error_msg: `discussion "${gone}" does not exist on record "${rowId}"` });
      expect((await ctx.call('DELETE', `${pathOf(sheet, rowId)}/${elsewhere}`)).body.error_code).toBe(10007);
      expect((await list(ctx, sheet, other)).total).toBe(1);
    });

    it('documents the three routes in the OpenAPI document', async () => {
      const paths = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths as Record<string, Record<string, unknown>>;
      expect(Object.keys(paths['/v3/app/worksheets/{worksheet_id}/rows/{row_id}/discussions']).sort()).toEqual(['get', 'post']);
      expect(Object.keys(paths['/v3/app/worksheets/{worksheet_id}/rows/{row_id}/discussions/{discussion_id}'])).toEqual(['delete']);
    });

    it('lets a read-only key list discussions but not post or delete them (10005)', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'guarded' }]);
      const id = await post(ctx, sheet, rowId, { message: 'hello' });
      const key = await addKey(ctx.database.db, ctx.setup.app.appId, true, START);
      const readOnly = { 'SVC-Appkey': key.appKey, 'SVC-Sign': key.sign };
      expect((await ctx.call<{ total: number }>('GET', pathOf(sheet, rowId), undefined, readOnly)).body.data.total).toBe(1);
      const posted = await ctx.call('POST', pathOf(sheet, rowId), { message: 'no' }, readOnly);
      expect(posted.status).toBe(403);
      expect(posted.body.error_code).toBe(10005);
      expect((await ctx.call('DELETE', `${pathOf(sheet, rowId)}/${id}`, undefined, readOnly)).body.error_code).toBe(10005);
      expect((await list(ctx, sheet, rowId)).total).toBe(1);
    });
  },
  {},
  { clock: () => now },
);

describeApi(
  "discussions and the record's life: not live, recycle bin, restore, permanent deletion, worksheet deletion",
  (ctx) => {
    let sheet: Sheet;
    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Cases', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    });
    const rows = () => `/v3/app/worksheets/${sheet.id}/rows`;
    const stored = (rowId: string) => ctx.database.db.selectFrom('discussions').select('id').where('row_id', '=', rowId).execute();

    it('answers 10007 for a record that does not exist, of another worksheet, and a worksheet that does not exist', async () => {
      for (const [method, body] of [['GET', undefined], ['POST', { message: 'x' }], ['DELETE', undefined]] as const) {
        const url = `${pathOf(sheet, 'no-such-record')}${method === 'DELETE' ? '/some-discussion' : ''}`;
        const response = await ctx.call(method, url, body);
        expect(response.status, method).toBe(404);
        expect(response.body, method).toMatchObject({ error_code: 10007, error_msg: 'record "no-such-record" does not exist or was deleted' });
      }
      const other = await makeSheet(ctx, 'Other', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      const foreign = await createRecord(ctx, other, [{ id: 'title', value: 'foreign' }]);
      expect((await ctx.call('GET', pathOf(sheet, foreign))).body.error_code).toBe(10007);
      expect((await ctx.call('GET', '/v3/app/worksheets/000000000000000000000000/rows/x/discussions')).body.error_code).toBe(430022);
    });

    it('keeps discussions while the record is in the recycle bin (where it reads as 10007) and shows them again on restore', async () => {
      const rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'binned' }]);
      const first = await post(ctx, sheet, rowId, { message: 'before the bin' });
      const reply = await post(ctx, sheet, rowId, { message: 'a reply', replyToId: first });
      expect((await ctx.call('DELETE', `${rows()}/${rowId}`)).body.error_msg).toBe('');
      expect((await ctx.call('GET', pathOf(sheet, rowId))).body.error_code).toBe(10007);
      expect((await ctx.call('POST', pathOf(sheet, rowId), { message: 'into the bin' })).body.error_code).toBe(10007);
      expect((await ctx.call('DELETE', `${pathOf(sheet, rowId)}/${first}`)).body.error_code).toBe(10007);
      expect(await stored(rowId)).toHaveLength(2);
      expect((await ctx.call('POST', `${rows()}/${rowId}/restore`)).body.error_msg).toBe('');
      const page = await list(ctx, sheet, rowId);
      expect(page.discussions.map((d) => [d.id, d.replyToId])).toEqual([[reply, first], [first, null]]);
    });

    it('removes the discussions of records deleted for good (live or from the bin, single or batch), leaving others', async () => {
      const [live, binned, kept] = await Promise.all(['live', 'binned', 'kept'].map((title) => createRecord(ctx, sheet, [{ id: 'title', value: title }])));
      for (const rowId of [live, binned, kept]) await post(ctx, sheet, rowId, { message: `on ${rowId}` });
      expect((await ctx.call('DELETE', `${rows()}/${live}`, { permanent: true })).body.error_msg).toBe('');
      expect(await stored(live)).toEqual([]);
      expect((await ctx.call('DELETE', `${rows()}/${binned}`)).body.error_msg).toBe('');
      expect((await ctx.call('DELETE', `${rows()}/batch`, { rowIds: [binned], permanent: true })).body.data).toEqual({ successfulRowIds: [binned], failedRowIds: [] });
      expect(await stored(binned)).toEqual([]);
      expect(await stored(kept)).toHaveLength(1);
    });

    it('finds the worksheet by its alias', async () => {
      const made = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Aliased', alias: 'aliased', fields: [{ name: 'Title', alias: 'title', type: '2', isTitle: true }] });
      const aliased: Sheet = { id: made.body.data.worksheetId, field: {} };
      const rowId = await createRecord(ctx, aliased, [{ id: 'title', value: 'by alias' }]);
      const id = await post(ctx, { id: 'aliased', field: {} }, rowId, { message: 'through the alias' });
      expect((await list(ctx, aliased, rowId)).discussions.map((d) => d.id)).toEqual([id]);
    });

    it('removes the discussions of a deleted worksheet', async () => {
      const doomed = await makeSheet(ctx, 'Doomed', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      const rowId = await createRecord(ctx, doomed, [{ id: 'title', value: 'doomed' }]);
      await post(ctx, doomed, rowId, { message: 'last words' });
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${doomed.id}`)).body.error_msg).toBe('');
      expect(await stored(rowId)).toEqual([]);
    });
  },
  {},
  { clock: () => now },
);
