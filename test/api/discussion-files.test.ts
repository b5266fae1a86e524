import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Files of discussions: given as an Attachment value takes them (data: and http URLs, fetched by
 * the server), shown as {originalFilename, ext, filesize, downloadUrl}, downloadable, filtered by
 * `onlyWithAttachments`, under the same limits and application quota as record attachments, and
 * removed from the store with their discussion or with their record deleted for good.
 */

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const TEXT = 'minutes of the meeting\n';
const dataUrl = (bytes: Buffer | string, type = 'text/plain') => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
const NOW = Date.UTC(2026, 2, 14, 9, 0, 0);

interface WireFile {
  id: string;
  originalFilename: string;
  ext: string;
  filesize: number;
  mimeType: string;
  downloadUrl: string;
}

interface WireDiscussion {
  id: string;
  message: string;
  attachments: WireFile[];
}

/** A loopback HTTP server: /chart.png and /big (2 KB). */
function fileServer(): { base: () => string } {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/chart.png') return response.writeHead(200, { 'content-type': 'text/html' }).end(PNG);
      if (request.url === '/big') return response.writeHead(200).end(Buffer.alloc(2048, 1));
      return response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  return { base: () => base };
}

const discussionsOf = (sheet: Sheet, rowId: string) => `/v3/app/worksheets/${sheet.id}/rows/${rowId}/discussions`;
/** The path and query of a download link (the test calls the app in-process). */
const linkPath = (link: string) => link.slice(link.indexOf('/files/'));

async function listed(ctx: ApiContext, sheet: Sheet, rowId: string, query = '') {
  const response = await ctx.call<{ discussions: WireDiscussion[]; total: number }>('GET', `${discussionsOf(sheet, rowId)}${query}`);
  expect(response.body.error_msg).toBe('');
  return response.body.data;
}

/** A "Reports" worksheet (a title and an Attachment field), made before a block's tests. */
function reportsSheet(ctx: ApiContext): () => Sheet {
  let sheet: Sheet;
  beforeAll(async () => {
    sheet = await makeSheet(ctx, 'Reports', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Files', alias: 'files', type: 'Attachment' },
    ]);
  });
  return () => sheet;
}

/** How many files the application's folder of the store holds. */
function storedCount(ctx: ApiContext): number {
  const folder = join(ctx.config.filesDir, ctx.setup.app.appId);
  return existsSync(folder) ? readdirSync(folder).length : 0;
}

/** The storage keys of a discussion's files. */
async function keysOf(ctx: ApiContext, discussionId: string): Promise<string[]> {
  const rows = await ctx.database.db.selectFrom('files').select('storage_key').where('field_id', '=', `discussion:${discussionId}`).execute();
  return rows.map((row) => row.storage_key);
}

describeApi(
  'discussion files: uploads, downloads, the filter, the limits, removal',
  (ctx) => {
    const remote = fileServer();
    const sheet = reportsSheet(ctx);
    const post = (rowId: string, body: unknown) => ctx.call<{ id: string }>('POST', discussionsOf(sheet(), rowId), body);

    it('stores files from data: and http URLs in the order given, shows and serves them', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'weekly' }]);
      const posted = await post(rowId, { message: 'notes attached', attachments: [{ name: 'Minutes.TXT', url: dataUrl(TEXT, 'image/png') }, { url: `${remote.base()}/chart.png` }] });
      expect(posted.body.error_msg).toBe('');
      const [shown] = (await listed(ctx, sheet(), rowId)).discussions;
      expect(shown.id).toBe(posted.body.data.id);
      const [minutes, chart] = shown.attachments;
      expect(minutes).toMatchObject({ originalFilename: 'Minutes.TXT', ext: '.TXT', filesize: Buffer.byteLength(TEXT), mimeType: 'text/plain' });
      expect(chart).toMatchObject({ originalFilename: 'chart.png', ext: '.png', filesize: PNG.length, mimeType: 'image/png' });
      expect(minutes.downloadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f]{24}\?expires=\d+&signature=[0-9a-f]{64}$/);
      const byLink = await ctx.app.inject({ method: 'GET', url: linkPath(chart.downloadUrl) });
      expect(byLink.statusCode).toBe(200);
      expect(byLink.headers['content-type']).toBe('image/png');
      expect(byLink.rawPayload.equals(PNG)).toBe(true);
      const withKey = await ctx.app.inject({ method: 'GET', url: `/v3/app/files/${minutes.id}`, headers: ctx.auth });
      expect(withKey.payload).toBe(TEXT);
      const single = await post(rowId, { message: 'one file alone', attachments: { name: 'README', url: dataUrl('r') } });
      expect(single.body.error_msg).toBe('');
      expect((await listed(ctx, sheet(), rowId)).discussions[0].attachments).toEqual([expect.objectContaining({ originalFilename: 'README', ext: '', filesize: 1 })]);
    });

    it('lists only discussions with files when asked, with their total', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'filtered' }]);
      const withFile = (await post(rowId, { message: 'report', attachments: [{ name: 'r.txt', url: dataUrl('report') }] })).body.data.id;
      expect((await post(rowId, { message: 'plain report', attachments: [] })).body.error_msg).toBe('');
      expect((await post(rowId, { message: 'plain', attachments: null })).body.error_msg).toBe('');
      const only = await listed(ctx, sheet(), rowId, '?onlyWithAttachments=true');
      expect(only.discussions.map((d) => d.id)).toEqual([withFile]);
      expect(only.total).toBe(1);
      expect((await listed(ctx, sheet(), rowId, '?onlyWithAttachments=1&search=REPORT')).total).toBe(1);
      expect((await listed(ctx, sheet(), rowId, '?onlyWithAttachments=false')).total).toBe(3);
    });

    it('removes the files and their bytes with the discussion', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'cleanup' }]);
      const id = (await post(rowId, { message: 'temporary', attachments: [{ name: 't.txt', url: dataUrl('temporary') }] })).body.data.id;
      const [key] = await keysOf(ctx, id);
      expect(existsSync(join(ctx.config.filesDir, key))).toBe(true);
      expect((await ctx.call('DELETE', `${discussionsOf(sheet(), rowId)}/${id}`)).body.error_msg).toBe('');
      expect(await keysOf(ctx, id)).toEqual([]);
      expect(existsSync(join(ctx.config.filesDir, key))).toBe(false);
    });

    it('keeps the bytes while the record is in the recycle bin and removes them when it is deleted for good', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'archived' }]);
      const id = (await post(rowId, { message: 'evidence', attachments: [{ name: 'e.txt', url: dataUrl('evidence') }] })).body.data.id;
      const [key] = await keysOf(ctx, id);
      const rows = `/v3/app/worksheets/${sheet().id}/rows`;
      expect((await ctx.call('DELETE', `${rows}/${rowId}`)).body.error_msg).toBe('');
      expect(existsSync(join(ctx.config.filesDir, key))).toBe(true);
      expect((await ctx.call('DELETE', `${rows}/${rowId}`, { permanent: true })).body.error_msg).toBe('');
      expect(await keysOf(ctx, id)).toEqual([]);
      expect(existsSync(join(ctx.config.filesDir, key))).toBe(false);
    });

    it('refuses files over the size or count limit (100007) and values that are not files (10002), storing nothing', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'refused' }]);
      const filesBefore = (await ctx.database.db.selectFrom('files').select('id').execute()).length;
      const storedBefore = storedCount(ctx);
      const big = await post(rowId, { message: 'big', attachments: [{ name: 'ok.txt', url: dataUrl('ok') }, { url: `${remote.base()}/big` }] });
      expect(big.body).toMatchObject({ error_code: 100007 });
      expect(big.body.error_msg).toBe(`attachments file "big": ${remote.base()}/big is larger than the 1024 bytes a file may have`);
      const bigData = await post(rowId, { message: 'big data', attachments: [{ name: 'big.bin', url: dataUrl(Buffer.alloc(1100)) }] });
      expect(bigData.body).toMatchObject({ error_code: 100007, error_msg: 'attachments file "big.bin": 1100 bytes, more than the 1024 a file may have' });
      const many = await post(rowId, { message: 'many', attachments: ['a', 'b', 'c', 'd'].map((name) => ({ name, url: dataUrl(name) })) });
      expect(many.body).toMatchObject({ error_code: 100007, error_msg: 'attachments: a discussion holds at most 3 files, got 4' });
      const byId = await post(rowId, { message: 'reuse', attachments: [{ id: '000000000000000000000000' }] });
      expect(byId.body).toMatchObject({ error_code: 10002 });
      expect(byId.body.error_msg).toContain('attachments: a discussion takes new files');
      const ftp = await post(rowId, { message: 'ftp', attachments: [{ name: 'x', url: 'ftp://example.org/x' }] });
      expect(ftp.body).toMatchObject({ error_code: 10002 });
      expect(ftp.body.error_msg).toMatch(/^attachments: file: url must be an http\(s\) address/);
      const missing = await post(rowId, { message: 'missing', attachments: [{ url: `${remote.base()}/nothing` }] });
      expect(missing.body).toMatchObject({ error_code: 10002 });
      expect(missing.body.error_msg).toContain('HTTP 404');
      const notFiles = await post(rowId, { message: 'text', attachments: 'a file' });
      expect(notFiles.body).toMatchObject({ error_code: 10002 });
      expect((await listed(ctx, sheet(), rowId)).total).toBe(0);
      expect((await ctx.database.db.selectFrom('files').select('id').execute()).length).toBe(filesBefore);
      expect(storedCount(ctx)).toBe(storedBefore);
    });

    it('checks the record, the reply and the mentions before fetching any file', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'checked first' }]);
      const before = storedCount(ctx);
      const file = [{ name: 'f.txt', url: dataUrl('f') }];
      expect((await post('no-such-record', { message: 'x', attachments: file })).body.error_code).toBe(10007);
      expect((await post(rowId, { message: 'x', replyToId: 'nope', attachments: file })).body.error_code).toBe(10002);
      expect((await post(rowId, { message: 'x', mentions: ['nobody'], attachments: file })).body.error_code).toBe(10002);
      expect(storedCount(ctx)).toBe(before);
    });
  },
  { ATTACHMENT_FETCH_PRIVATE: 'true', ATTACHMENT_MAX_SIZE: '1kb', ATTACHMENT_MAX_PER_RECORD: '3' },
  { clock: () => NOW },
);

describeApi(
  "discussion files: the application's quota and private addresses",
  (ctx) => {
    const remote = fileServer();
    const sheet = reportsSheet(ctx);

    it('refuses to fetch from a loopback address unless the setting allows it', async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'private' }]);
      const refused = await ctx.call('POST', discussionsOf(sheet(), rowId), { message: 'x', attachments: [{ url: `${remote.base()}/chart.png` }] });
      expect(refused.body).toMatchObject({ error_code: 10002 });
      expect(refused.body.error_msg).toContain('127.0.0.1, a private or local address');
    });

    it("counts discussion files in the application's quota (430017), with record attachments", async () => {
      const rowId = await createRecord(ctx, sheet(), [{ id: 'title', value: 'quota' }]);
      const fits = await ctx.call('POST', discussionsOf(sheet(), rowId), { message: 'fits', attachments: [{ name: 'a', url: dataUrl(Buffer.alloc(1200)) }] });
      expect(fits.body.error_msg).toBe('');
      const over = await ctx.call('POST', discussionsOf(sheet(), rowId), { message: 'over', attachments: [{ name: 'b', url: dataUrl(Buffer.alloc(1200)) }] });
      expect(over.body).toMatchObject({ error_code: 430017 });
      expect(over.body.error_msg).toContain('quota of 2048');
      const asValue = await ctx.call('PATCH', `/v3/app/worksheets/${sheet().id}/rows/${rowId}`, { fields: [{ id: 'files', value: [{ name: 'c', url: dataUrl(Buffer.alloc(1200)) }] }] });
      expect(asValue.body).toMatchObject({ error_code: 430017 });
    });
  },
  { APP_FILE_QUOTA: '2kb' },
  { clock: () => NOW },
);
