import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createToken } from '../../src/modules/access-tokens/index.js';
import { describeApi, type ApiContext, type Envelope } from '../helpers/api-harness.js';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server.js';
import { makePdf } from '../helpers/pdf-files.js';
import { sendRaw } from '../helpers/raw-http.js';
import { WebClient } from '../helpers/web-client.js';

/**
 * Documents uploaded to a knowledge base as multipart/form-data (docs/knowledge.md, "Documents:
 * ingestion"): Markdown and PDF files become searchable once their job has run; the upload
 * authenticates with an app key, a personal access token and a signed-in session alike; a file over
 * KNOWLEDGE_DOCUMENT_MAX_SIZE is refused while it streams in (the answer comes before the body has
 * been sent) and a type no parser reads before its bytes, with nothing kept; a URL whose
 * Content-Length is over the limit is refused before its body; a failed document is retried.
 */

interface DocOut {
  id: string;
  title: string;
  mediaType: string;
  status: string;
  error?: string;
}

interface Part {
  name: string;
  value: string | Buffer;
  /** Makes the part a file. */
  filename?: string;
  type?: string;
}

/** A multipart/form-data body as fetch encodes it (its boundary in the content type). */
async function form(parts: Part[]): Promise<{ payload: Buffer; contentType: string }> {
  const data = new FormData();
  for (const part of parts) {
    if (part.filename === undefined) data.append(part.name, String(part.value));
    else data.append(part.name, new Blob([part.value], { type: part.type ?? '' }), part.filename);
  }
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: data });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function upload(ctx: ApiContext, base: string, parts: Part[], headers: Record<string, string> = ctx.auth) {
  const { payload, contentType } = await form(parts);
  const response = await ctx.app.inject({ method: 'POST', url: `/v3/app/knowledge/${base}/documents`, headers: { ...headers, 'content-type': contentType }, payload });
  return { status: response.statusCode, body: response.json<Envelope<{ documentId: string; status: string }>>() };
}

async function newBase(ctx: ApiContext, name: string): Promise<string> {
  const created = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name });
  expect(created.body.error_msg).toBe('');
  return created.body.data.id;
}

async function documents(ctx: ApiContext, base: string): Promise<DocOut[]> {
  const listed = await ctx.call<{ documents: DocOut[] }>('GET', `/v3/app/knowledge/${base}/documents`);
  expect(listed.body.error_msg).toBe('');
  return listed.body.data.documents;
}

async function searchTitles(ctx: ApiContext, base: string, query: string): Promise<string[]> {
  const found = await ctx.call<{ results: Array<{ source: { title: string; documentId?: string } }> }>('POST', '/v3/app/knowledge/search', { knowledgeId: base, query, mode: 'keyword' });
  expect(found.body.error_msg).toBe('');
  return found.body.data.results.map((hit) => hit.source.title);
}

/** The document bytes waiting in the files store. */
async function keptBytes(ctx: ApiContext): Promise<string[]> {
  return readdir(join(ctx.config.filesDir, 'knowledge-documents')).catch(() => []);
}

const LIMIT = 8192;
const GUIDE = '# Travel guide\n\n## Visas\n\nA visa for Narnia is issued at the wardrobe office within three days.\n';

describeApi(
  'knowledge documents uploaded',
  (ctx) => {
    let base: string;
    let port: number;
    let remote: Server;
    let remoteUrl: string;
    beforeAll(async () => {
      base = await newBase(ctx, 'Uploads');
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      port = (ctx.app.server.address() as AddressInfo).port;
      // A server that announces more bytes than the limit and sends them slowly: only its Content-Length can refuse it early.
      remote = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/markdown', 'content-length': String(LIMIT * 4) });
        response.write('# Big\n');
      });
      await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
      remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/big.md`;
    });
    afterAll(async () => {
      remote.closeAllConnections();
      await new Promise((resolve) => remote.close(resolve));
    });

    it('ingests an uploaded Markdown file and an uploaded PDF, and search finds their passages', async () => {
      // curl and browsers often send Markdown as application/octet-stream: the extension decides.
      const md = await upload(ctx, base, [{ name: 'file', value: GUIDE, filename: 'guide.md', type: 'application/octet-stream' }]);
      expect(md.body).toMatchObject({ error_code: 1, data: { status: 'queued' } });
      const pdf = await upload(ctx, base, [
        { name: 'title', value: 'Cafeteria menu' },
        { name: 'file', value: makePdf([['The cafeteria serves quince tart on Thursdays.'], ['Soup of the day is lentil.']], { title: 'Menu' }), filename: 'menu.pdf', type: 'application/pdf' },
      ]);
      expect(pdf.body).toMatchObject({ error_code: 1, data: { status: 'queued' } });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);

      const docs = await documents(ctx, base);
      expect(docs.map((d) => [d.id, d.title, d.mediaType, d.status])).toEqual([
        [md.body.data.documentId, 'Travel guide', 'text/markdown', 'ready'],
        [pdf.body.data.documentId, 'Cafeteria menu', 'application/pdf', 'ready'],
      ]);
      expect(await searchTitles(ctx, base, 'Narnia visa')).toEqual(['Travel guide › Visas']);
      expect((await searchTitles(ctx, base, 'quince tart')).length).toBe(1);
      expect(await searchTitles(ctx, base, 'lentil soup')).toHaveLength(1);
      // Ingested documents keep no bytes.
      expect(await keptBytes(ctx)).toEqual([]);
    });

    it('authenticates an upload with a personal access token and a signed-in session as with an app key', async () => {
      const owner = ctx.setup.owner.accountId;
      const appId = { [`${ctx.config.headerPrefix}-Appid`]: ctx.setup.app.appId };
      const { token } = await createToken(ctx.database.db, owner, { name: 'uploads', scopes: ['app:edit', 'knowledge:list'] }, Date.now());
      const byToken = await upload(ctx, base, [{ name: 'file', value: 'Parking permits are renewed every January.', filename: 'parking.txt', type: 'text/plain' }], { authorization: `Bearer ${token}`, ...appId });
      expect(byToken.body).toMatchObject({ error_code: 1, data: { status: 'queued' } });
      const reader = await createToken(ctx.database.db, owner, { name: 'reader', scopes: ['knowledge:list'] }, Date.now());
      const refused = await upload(ctx, base, [{ name: 'file', value: 'x', filename: 'x.txt' }], { authorization: `Bearer ${reader.token}`, ...appId });
      expect([refused.status, refused.body.error_code]).toEqual([403, 10005]);
      expect(refused.body.error_msg).toContain('app:edit');

      const web = new WebClient(ctx.app, '10.9.0.1');
      expect((await web.signIn(ctx.setup.owner.email, ctx.setup.owner.password)).status).toBe(303);
      const csrf = JSON.parse((await web.get('/sign-in/csrf')).body) as { data: { csrfToken: string } };
      const cookie = [...web.jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const bySession = await upload(ctx, base, [{ name: 'file', value: '<h1>Bikes</h1><p>Bicycles are stored in the basement cage.</p>', filename: 'bikes.html', type: 'text/html' }], { cookie, 'X-CSRF-Token': csrf.data.csrfToken, ...appId });
      expect(bySession.body).toMatchObject({ error_code: 1, data: { status: 'queued' } });

      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      expect(await searchTitles(ctx, base, 'parking permits')).toEqual(['parking']);
      expect(await searchTitles(ctx, base, 'bicycles basement')).toEqual(['Bikes']);
    });

    it('refuses a file over KNOWLEDGE_DOCUMENT_MAX_SIZE with 100007 naming it and the limit, keeping nothing', async () => {
      const other = await newBase(ctx, 'Too large');
      const big = await upload(ctx, other, [{ name: 'file', value: 'a'.repeat(LIMIT + 1), filename: 'big.md', type: 'text/markdown' }]);
      expect([big.status, big.body.error_code]).toEqual([400, 100007]);
      expect(big.body.error_msg).toBe(`file "big.md": larger than the ${LIMIT} bytes a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)`);
      // Exactly the limit is accepted.
      const fits = await upload(ctx, other, [{ name: 'file', value: 'a'.repeat(LIMIT), filename: 'fits.md', type: 'text/markdown' }]);
      expect(fits.body.error_msg).toBe('');
      expect((await documents(ctx, other)).map((d) => d.title)).toEqual(['fits']);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect(await keptBytes(ctx)).toEqual([]);

      // Text sent as JSON is held to the same limit at once.
      const text = await ctx.call('POST', `/v3/app/knowledge/${other}/documents`, { text: 'b'.repeat(LIMIT + 1), title: 'Long' });
      expect(text.body).toMatchObject({ error_code: 100007, error_msg: `"Long": ${LIMIT + 1} bytes, more than the ${LIMIT} a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)` });
      expect((await documents(ctx, other)).map((d) => d.title)).toEqual(['fits']);
    });

    it('answers a too large upload while it streams in, before the rest of the body is sent, and closes the connection', async () => {
      const other = await newBase(ctx, 'Streamed');
      const boundary = 'tabulariumBoundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.md"\r\nContent-Type: text/markdown\r\n\r\n`;
      const declared = LIMIT * 1000;
      const auth = Object.entries(ctx.auth).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      // Only the start of a body of ~8 MB is ever sent: a server that read to its end would never answer.
      const request = Buffer.concat([
        Buffer.from(`POST /v3/app/knowledge/${other}/documents HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n${head}`),
        Buffer.alloc(LIMIT * 2, 'a'),
      ]);
      const answer = await sendRaw(port, request);
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toMatchObject({ error_code: 100007, error_msg: `file "huge.md": larger than the ${LIMIT} bytes a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)` });
      expect(await documents(ctx, other)).toEqual([]);
      expect(await keptBytes(ctx)).toEqual([]);
    });

    it('refuses a type no parser reads before its bytes, and a binary file, keeping nothing', async () => {
      const other = await newBase(ctx, 'Types');
      const png = await upload(ctx, other, [{ name: 'file', value: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), filename: 'logo.png', type: 'image/png' }]);
      expect([png.status, png.body.error_code]).toEqual([400, 10002]);
      expect(png.body.error_msg).toBe('"logo.png" is image/png, which a knowledge base cannot read: send text (text/plain), Markdown (text/markdown), HTML (text/html) or PDF (application/pdf)');
      const binary = await upload(ctx, other, [{ name: 'file', value: Buffer.from([1, 2, 0, 3]), filename: 'blob', type: 'application/octet-stream' }]);
      expect(binary.body.error_code).toBe(10002);
      expect(binary.body.error_msg).toContain('"blob" is not a text, Markdown, HTML or PDF document');
      const notPdf = await upload(ctx, other, [{ name: 'file', value: 'plain words', filename: 'report.pdf', type: 'application/pdf' }]);
      expect(notPdf.body.error_msg).toContain('"report.pdf" is declared as application/pdf but is not a PDF');
      expect(await documents(ctx, other)).toEqual([]);
      expect(await keptBytes(ctx)).toEqual([]);
    });

    it('names what is wrong with the form: no file, an unknown part, two files, an empty file, an unknown base', async () => {
      const noFile = await upload(ctx, base, [{ name: 'title', value: 'Nothing' }]);
      expect([noFile.status, noFile.body.error_code, noFile.body.error_msg]).toEqual([400, 10001, 'file is required: the document, as the part named file of the multipart/form-data body']);
      const unknown = await upload(ctx, base, [{ name: 'url', value: 'http://example.com/' }]);
      expect(unknown.body).toMatchObject({ error_code: 10001, error_msg: 'body.url is not a known parameter: an upload sends the parts file (the document) and title' });
      const wrongName = await upload(ctx, base, [{ name: 'document', value: 'x', filename: 'x.txt' }]);
      expect(wrongName.body.error_msg).toBe('body.document is not a known parameter: an upload sends the parts file (the document) and title');
      const two = await upload(ctx, base, [
        { name: 'file', value: 'one', filename: 'one.txt' },
        { name: 'file', value: 'two', filename: 'two.txt' },
      ]);
      expect(two.body).toMatchObject({ error_code: 10001, error_msg: 'file: one document per request (a single part named file)' });
      const empty = await upload(ctx, base, [{ name: 'file', value: '', filename: 'empty.txt', type: 'text/plain' }]);
      expect(empty.body).toMatchObject({ error_code: 10002, error_msg: 'file "empty.txt": the document is empty' });
      const longTitle = await upload(ctx, base, [{ name: 'title', value: 't'.repeat(301) }, { name: 'file', value: 'x', filename: 'x.txt' }]);
      expect(longTitle.body).toMatchObject({ error_code: 10002, error_msg: 'title: at most 300 characters' });
      const missing = await upload(ctx, 'no-such-base', [{ name: 'file', value: 'x', filename: 'x.txt' }]);
      expect([missing.status, missing.body.error_code]).toEqual([404, 10007]);
      const broken = await ctx.app.inject({ method: 'POST', url: `/v3/app/knowledge/${base}/documents`, headers: { ...ctx.auth, 'content-type': 'multipart/form-data' }, payload: 'not a form' });
      expect([broken.statusCode, broken.json<Envelope>().error_code]).toEqual([400, 10001]);
      expect(broken.json<Envelope>().error_msg).toContain('multipart/form-data body cannot be read');
    });

    it('refuses a URL whose Content-Length is over the limit before reading its body', async () => {
      const refused = await ctx.call('POST', `/v3/app/knowledge/${base}/documents`, { url: remoteUrl });
      expect(refused.body).toMatchObject({
        error_code: 100007,
        error_msg: `url: ${remoteUrl} is larger than the ${LIMIT} bytes a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE): its Content-Length is ${LIMIT * 4}`,
      });
    });

    it('keeps JSON bodies working on the same route, and other routes do not read multipart bodies', async () => {
      const added = await ctx.call<{ status: string }>('POST', `/v3/app/knowledge/${base}/documents`, { text: 'Lockers are emptied on Fridays.', title: 'Lockers' });
      expect(added.body).toMatchObject({ error_code: 1, data: { status: 'queued' } });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const { payload, contentType } = await form([{ name: 'query', value: 'lockers' }]);
      const search = await ctx.app.inject({ method: 'POST', url: '/v3/app/knowledge/search', headers: { ...ctx.auth, 'content-type': contentType }, payload });
      expect([search.statusCode, search.json<Envelope>().error_code]).toEqual([415, 10001]);

      type Operation = { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } };
      const openApi = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, { post: Operation }> }>();
      const { content } = openApi.paths['/v3/app/knowledge/{knowledge_id}/documents']!.post.requestBody;
      expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
      expect(content['multipart/form-data']!.schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
      expect(Object.keys(content['application/json']!.schema.properties).sort()).toEqual(['mediaType', 'text', 'title', 'url']);
    });
  },
  { WORKERS: '0', KNOWLEDGE_DOCUMENT_MAX_SIZE: String(LIMIT), ATTACHMENT_FETCH_PRIVATE: 'true' },
  { sweeps: false },
);

const env: Record<string, string> = { WORKERS: '0' };
let service: FakeModelServer;
beforeAll(async () => {
  service = await startFakeModelServer();
  env.EMBEDDINGS_URL = service.url;
  env.EMBEDDINGS_MODEL = 'fake-embed';
});
afterAll(() => service?.close());

describeApi(
  'knowledge documents retried',
  (ctx) => {
    it('retries a failed document from its kept bytes; other states answer 409', async () => {
      const base = await newBase(ctx, 'Retried');
      const added = await upload(ctx, base, [{ name: 'file', value: GUIDE, filename: 'guide.md' }]);
      expect(added.body.error_msg).toBe('');
      const id = added.body.data.documentId;
      const retry = () => ctx.call<{ documentId: string; status: string }>('POST', `/v3/app/knowledge/${base}/documents/${id}/retry`);

      const early = await retry();
      expect([early.status, early.body.error_code, early.body.error_msg]).toEqual([409, 10002, 'document "guide" is queued: only a failed document can be retried']);

      // The embeddings service refuses for good: the document fails at once, its bytes kept.
      service.failNext({ status: 400 });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const [failed] = await documents(ctx, base);
      expect(failed).toMatchObject({ id, status: 'failed', title: 'Travel guide' });
      expect(failed!.error).toContain('400');
      expect(await keptBytes(ctx)).toEqual([id]);
      expect((await ctx.call<{ status: string }>('GET', `/v3/app/knowledge/${base}`)).body.data.status).toBe('failed');

      const again = await retry();
      expect(again.body).toMatchObject({ error_code: 1, data: { documentId: id, status: 'queued' } });
      const [queued] = await documents(ctx, base);
      expect(queued).toMatchObject({ status: 'queued' });
      expect(queued!.error).toBeUndefined();
      expect((await ctx.call<{ status: string }>('GET', `/v3/app/knowledge/${base}`)).body.data.status).toBe('indexing');
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect((await documents(ctx, base))[0]).toMatchObject({ id, status: 'ready', title: 'Travel guide' });
      expect(await searchTitles(ctx, base, 'Narnia visa')).toEqual(['Travel guide › Visas']);
      expect(await keptBytes(ctx)).toEqual([]);

      const ready = await retry();
      expect([ready.status, ready.body.error_code, ready.body.error_msg]).toEqual([409, 10002, 'document "Travel guide" is ready: only a failed document can be retried']);
      const unknown = await ctx.call('POST', `/v3/app/knowledge/${base}/documents/nope/retry`);
      expect([unknown.status, unknown.body.error_code]).toEqual([404, 10007]);
    });

    it('removes the kept bytes of a failed document when its base is deleted', async () => {
      const base = await newBase(ctx, 'Dropped');
      const added = await upload(ctx, base, [{ name: 'file', value: GUIDE, filename: 'guide.md' }]);
      service.failNext({ status: 400 });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect(await keptBytes(ctx)).toEqual([added.body.data.documentId]);
      expect((await ctx.call('DELETE', `/v3/app/knowledge/${base}`)).body.error_msg).toBe('');
      await expect.poll(() => keptBytes(ctx)).toEqual([]);
    });
  },
  env,
  { sweeps: false },
);
