import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, readRecord, valueOf, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Attachments (14): files from data: URLs and from http URLs (a loopback server of the test's own,
 * allowed by ATTACHMENT_FETCH_PRIVATE), content types sniffed from the bytes, overwrite and append,
 * downloads with the app's credentials and by signed link, the limits, and the bytes removed from the
 * store when no record holds them any more. The refusal of private addresses has its own block.
 */

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const TEXT = 'hello, files\n';
const dataUrl = (bytes: Buffer | string, type = 'text/plain') => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

interface FileValue {
  id: string;
  name: string;
  size: number;
  mimeType: string;
  downloadUrl: string;
}

/** A loopback HTTP server: /pixel.png, /note.txt, /big (2 KB), /moved (redirects to the pixel). */
async function fileServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/pixel.png') return response.writeHead(200, { 'content-type': 'text/html' }).end(PNG);
    if (request.url === '/note.txt') return response.writeHead(200).end(TEXT);
    if (request.url === '/big') return response.writeHead(200).end(Buffer.alloc(2048, 1));
    if (request.url === '/moved') return response.writeHead(302, { location: '/pixel.png' }).end();
    return response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${address.port}` };
}

async function files(ctx: ApiContext, sheet: Sheet, id: string): Promise<FileValue[]> {
  return valueOf(await readRecord(ctx, sheet, id), sheet.field.files) as FileValue[];
}

/** A "Documents" worksheet with an attachment field, and the loopback file server, for one block of tests. */
function documents(ctx: ApiContext): { sheet: Sheet; remote: { server: Server; base: string } } {
  const fixture = {} as { sheet: Sheet; remote: { server: Server; base: string } };
  beforeAll(async () => {
    fixture.remote = await fileServer();
    fixture.sheet = await makeSheet(ctx, 'Documents', [
      { name: 'Title', alias: 'title', type: '2', isTitle: true },
      { name: 'Files', alias: 'files', type: 'Attachment' },
    ]);
  });
  afterAll(async () => {
    await new Promise((resolve) => fixture.remote.server.close(resolve));
  });
  return fixture;
}

/** The path and query of a download link (the test calls the app in-process). */
const pathOf = (link: string) => link.slice(link.indexOf('/files/'));

describeApi(
  'attachments: files written from data and http URLs, read back and downloaded',
  (ctx) => {
    const fixture = documents(ctx);
    let sheet: Sheet;
    let remote: { server: Server; base: string };
    beforeAll(() => ({ sheet, remote } = fixture));

    it('stores a data: URL and an http URL, with types sniffed from the bytes, and serves them back', async () => {
      const id = await createRecord(ctx, sheet, [
        { id: 'title', value: 'doc' },
        { id: 'files', value: [{ name: 'note.txt', url: dataUrl(TEXT, 'image/png') }, { url: `${remote.base}/moved` }] },
      ]);
      const [note, pixel] = await files(ctx, sheet, id);
      expect(note).toMatchObject({ name: 'note.txt', size: Buffer.byteLength(TEXT), mimeType: 'text/plain' });
      expect(pixel).toMatchObject({ name: 'moved', size: PNG.length, mimeType: 'image/png' });
      expect(note.downloadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f]{24}\?expires=\d+&signature=[0-9a-f]{64}$/);
      const byLink = await ctx.app.inject({ method: 'GET', url: pathOf(pixel.downloadUrl) });
      expect(byLink.statusCode).toBe(200);
      expect(byLink.headers['content-type']).toBe('image/png');
      expect(byLink.headers['content-disposition']).toBe("attachment; filename*=UTF-8''moved");
      expect(byLink.rawPayload.equals(PNG)).toBe(true);
      const withKey = await ctx.app.inject({ method: 'GET', url: `/v3/app/files/${note.id}`, headers: ctx.auth });
      expect(withKey.statusCode).toBe(200);
      expect(withKey.payload).toBe(TEXT);
    });

    it('refuses a download link that is altered or has expired, and a file id without credentials', async () => {
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'links' }, { id: 'files', value: [{ name: 'a.txt', url: dataUrl('a') }] }]);
      const [file] = await files(ctx, sheet, id);
      const altered = pathOf(file.downloadUrl).replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
      const refused = await ctx.app.inject({ method: 'GET', url: altered });
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.payload)).toMatchObject({ error_code: 10005 });
      const expired = pathOf(file.downloadUrl).replace(/expires=\d+/, 'expires=1000');
      expect((await ctx.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
      const anonymous = await ctx.app.inject({ method: 'GET', url: `/v3/app/files/${file.id}` });
      expect(JSON.parse(anonymous.payload)).toMatchObject({ error_code: 10101 });
      const unknown = await ctx.app.inject({ method: 'GET', url: '/v3/app/files/000000000000000000000000', headers: ctx.auth });
      expect(JSON.parse(unknown.payload)).toMatchObject({ error_code: 10007 });
    });

    it('appends with type 1, overwrites keeping the files named by id, and removes the bytes of replaced files', async () => {
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'history' }, { id: 'files', value: [{ name: 'one.txt', url: dataUrl('1') }] }]);
      const patch = (value: unknown, type?: number) => ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { fields: [{ id: 'files', value, ...(type === undefined ? {} : { type }) }] });
      expect((await patch([{ name: 'two.txt', url: dataUrl('2') }], 1)).body.error_msg).toBe('');
      const [one, two] = await files(ctx, sheet, id);
      expect([one.name, two.name]).toEqual(['one.txt', 'two.txt']);
      const storedOne = await ctx.database.db.selectFrom('files').select('storage_key').where('id', '=', one.id).executeTakeFirstOrThrow();
      expect(existsSync(join(ctx.config.filesDir, storedOne.storage_key))).toBe(true);
      expect((await patch([{ id: two.id }, { name: 'three.txt', url: dataUrl('3') }])).body.error_msg).toBe('');
      expect((await files(ctx, sheet, id)).map((f) => f.name)).toEqual(['two.txt', 'three.txt']);
      expect(existsSync(join(ctx.config.filesDir, storedOne.storage_key))).toBe(false);
      const unknownKeep = await patch([{ id: one.id }]);
      expect(unknownKeep.body).toMatchObject({ error_code: 10002 });
      expect(unknownKeep.body.error_msg).toContain(`has no file "${one.id}"`);
      expect((await patch(null)).body.error_msg).toBe('');
      expect(await files(ctx, sheet, id)).toEqual([]);
      const empty = await ctx.call<{ rows: unknown[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter: { type: 'condition', field: 'files', operator: 'isempty' } });
      expect(empty.body.data.rows).toHaveLength(1);
    });

    it('removes the bytes when the record is deleted for good, and keeps them while it is in the recycle bin', async () => {
      const id = await createRecord(ctx, sheet, [{ id: 'title', value: 'bin' }, { id: 'files', value: [{ name: 'b.txt', url: dataUrl('b') }] }]);
      const [file] = await files(ctx, sheet, id);
      const { storage_key: key } = await ctx.database.db.selectFrom('files').select('storage_key').where('id', '=', file.id).executeTakeFirstOrThrow();
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${id}`)).body.error_msg).toBe('');
      expect(existsSync(join(ctx.config.filesDir, key))).toBe(true);
      expect((await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${id}`, { permanent: true })).body.error_msg).toBe('');
      expect(existsSync(join(ctx.config.filesDir, key))).toBe(false);
      expect(await ctx.database.db.selectFrom('files').select('id').where('row_id', '=', id).execute()).toEqual([]);
    });

    it('refuses files over the size limit and records over the count limit (100007), and bad values (10002), writing nothing', async () => {
      const big = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'big' }, { id: 'files', value: [{ url: `${remote.base}/big` }] }] });
      expect(big.body).toMatchObject({ error_code: 100007 });
      expect(big.body.error_msg).toContain('1024');
      const many = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'many' }, { id: 'files', value: ['a', 'b', 'c', 'd'].map((n) => ({ name: n, url: dataUrl(n) })) }] });
      expect(many.body).toMatchObject({ error_code: 100007 });
      expect(many.body.error_msg).toContain('at most 3 files');
      const bad = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'bad' }, { id: 'files', value: [{ name: 'x', url: 'ftp://example.org/x' }] }] });
      expect(bad.body).toMatchObject({ error_code: 10002 });
      expect(bad.body.error_msg).toContain('"Files"');
      const missing = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'gone' }, { id: 'files', value: [{ url: `${remote.base}/nothing` }] }] });
      expect(missing.body).toMatchObject({ error_code: 10002 });
      expect(missing.body.error_msg).toContain('HTTP 404');
      const refusedTitles = ['big', 'many', 'bad', 'gone'].map((value) => ({ type: 'condition', field: 'title', operator: 'eq', value }));
      const listed = await ctx.call<{ rows: unknown[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, { filter: { type: 'group', logic: 'OR', children: refusedTitles } });
      expect(listed.body.error_msg).toBe('');
      expect(listed.body.data.rows).toEqual([]);
      const stored = await ctx.database.db.selectFrom('files').select('name').where('name', 'in', ['a', 'b', 'c', 'd']).execute();
      expect(stored).toEqual([]);
    });
  },
  { ATTACHMENT_FETCH_PRIVATE: 'true', ATTACHMENT_MAX_SIZE: '1kb', ATTACHMENT_MAX_PER_RECORD: '3' },
);

describeApi(
  'attachments: private addresses and the application quota',
  (ctx) => {
    const fixture = documents(ctx);
    let sheet: Sheet;
    let remote: { server: Server; base: string };
    beforeAll(() => ({ sheet, remote } = fixture));

    it('refuses to fetch from a loopback address unless the setting allows it', async () => {
      const refused = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'x' }, { id: 'files', value: [{ url: `${remote.base}/note.txt` }] }] });
      expect(refused.body).toMatchObject({ error_code: 10002 });
      expect(refused.body.error_msg).toContain('127.0.0.1, a private or local address');
      const byName = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'x' }, { id: 'files', value: [{ url: remote.base.replace('127.0.0.1', 'localhost') + '/note.txt' }] }] });
      expect(byName.body).toMatchObject({ error_code: 10002 });
      expect(byName.body.error_msg).toContain('a private or local address');
    });

    it("refuses files beyond the application's quota (430017)", async () => {
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'fits' }, { id: 'files', value: [{ name: 'a', url: dataUrl(Buffer.alloc(1200)) }] }] })).body.error_msg).toBe('');
      const over = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'title', value: 'over' }, { id: 'files', value: [{ name: 'b', url: dataUrl(Buffer.alloc(1200)) }] }] });
      expect(over.body).toMatchObject({ error_code: 430017 });
      expect(over.body.error_msg).toContain('quota of 2048');
    });
  },
  { APP_FILE_QUOTA: '2kb' },
);
