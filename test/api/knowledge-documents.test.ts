import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';

/**
 * Documents of a knowledge base through HTTP: added as text (plain, Markdown, HTML) or from a URL,
 * ingested by their job and found by search; a document that cannot be read fails with its error;
 * the list shows the ingestion's state; delete takes the passages (docs/knowledge.md, "Documents").
 */

interface DocOut {
  id: string;
  title: string;
  mediaType: string;
  byteSize: number;
  status: string;
  progress: number;
  chunkTotal: number;
  error?: string;
}
interface Hit {
  content: string;
  source: { type: string; knowledgeId: string; documentId?: string; title: string; chunkIndex: number };
}

async function call<T>(ctx: ApiContext, method: string, url: string, body?: unknown) {
  return (await ctx.call<T>(method, url, body)).body;
}

async function newBase(ctx: ApiContext, name: string): Promise<string> {
  const created = await call<{ id: string }>(ctx, 'POST', '/v3/app/knowledge', { name });
  expect(created.error_msg).toBe('');
  return created.data.id;
}

async function add(ctx: ApiContext, base: string, body: Record<string, unknown>) {
  return call<{ documentId: string; status: string }>(ctx, 'POST', `/v3/app/knowledge/${base}/documents`, body);
}

async function documents(ctx: ApiContext, base: string): Promise<DocOut[]> {
  const listed = await call<{ documents: DocOut[] }>(ctx, 'GET', `/v3/app/knowledge/${base}/documents`);
  expect(listed.error_msg).toBe('');
  return listed.data.documents;
}

async function search(ctx: ApiContext, base: string, query: string): Promise<Hit[]> {
  const found = await call<{ results: Hit[] }>(ctx, 'POST', '/v3/app/knowledge/search', { knowledgeId: base, query, mode: 'keyword' });
  expect(found.error_msg).toBe('');
  return found.data.results;
}

const MARKDOWN = '# Travel guide\n\n## Visas\n\nA visa for Narnia is issued at the wardrobe office within three days.\n';
const HTML = '<html><head><title>Cafeteria</title></head><body><h1>Menu</h1><p>The cafeteria serves quince tart on Thursdays.</p></body></html>';

/** A local server answering one Markdown page, for the URL documents. */
function pageServer(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/markdown' });
    res.end('# Remote notes\n\nThe lighthouse keeper feeds the gulls at dawn.\n');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describeApi(
  'knowledge documents',
  (ctx) => {
    let base: string;
    let server: Server;
    let url: string;
    beforeAll(async () => {
      base = await newBase(ctx, 'Handbook');
      server = await pageServer();
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes.md`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('ingests text, Markdown and HTML documents in jobs, and search finds their passages', async () => {
      const plain = await add(ctx, base, { text: 'Parking permits are renewed every January at the front desk.', title: 'Parking' });
      const md = await add(ctx, base, { text: MARKDOWN, title: 'Travel', mediaType: 'text/markdown' });
      const html = await add(ctx, base, { text: HTML, title: 'Food', mediaType: 'text/html' });
      for (const added of [plain, md, html]) expect(added).toMatchObject({ error_msg: '', data: { status: 'queued' } });
      const queued = await call<{ status: string; documentCount: number }>(ctx, 'GET', `/v3/app/knowledge/${base}`);
      expect(queued.data).toMatchObject({ status: 'indexing', documentCount: 3 });
      expect((await documents(ctx, base)).map((d) => [d.title, d.mediaType, d.status, d.progress])).toEqual([
        ['Parking', 'text/plain', 'queued', 0],
        ['Travel', 'text/markdown', 'queued', 0],
        ['Food', 'text/html', 'queued', 0],
      ]);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(3);
      const ready = await documents(ctx, base);
      for (const doc of ready) expect(doc).toMatchObject({ status: 'ready' });
      for (const doc of ready) expect(doc.progress).toBe(doc.chunkTotal);
      expect(ready.every((d) => d.chunkTotal >= 1)).toBe(true);
      const listed = await call<{ status: string; chunkCount: number }>(ctx, 'GET', `/v3/app/knowledge/${base}`);
      expect(listed.data.status).toBe('ready');

      const [parking] = await search(ctx, base, 'parking permits');
      expect(parking!.source).toEqual({ type: 'document', knowledgeId: base, documentId: plain.data.documentId, title: 'Parking', chunkIndex: 0 });
      const [visa] = await search(ctx, base, 'Narnia visa');
      expect(visa!.source).toMatchObject({ type: 'document', documentId: md.data.documentId, title: 'Travel guide › Visas' });
      expect(visa!.content).toContain('wardrobe office');
      const [tart] = await search(ctx, base, 'quince tart');
      expect(tart!.source).toMatchObject({ type: 'document', documentId: html.data.documentId });
    });

    it('fetches a URL from a private address only when ATTACHMENT_FETCH_PRIVATE allows', async () => {
      const refused = await add(ctx, base, { url });
      expect(refused.error_code).toBe(10002);
      expect(refused.error_msg).toContain('private or local address');
    });

    it('fails a broken PDF with its error, and delete removes a document with its passages', async () => {
      const other = await newBase(ctx, 'Scratch');
      const pdf = await add(ctx, other, { text: '%PDF-1.4\nthis is no PDF at all', title: 'Broken' });
      expect(pdf.error_msg).toBe('');
      const kept = await add(ctx, other, { text: 'Bicycles are stored in the basement cage.', title: 'Bikes' });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      const [broken, bikes] = await documents(ctx, other);
      expect(broken).toMatchObject({ title: 'Broken', status: 'failed' });
      expect(broken!.error).toMatch(/Broken/);
      expect(bikes).toMatchObject({ status: 'ready' });
      const failedBase = await call<{ status: string; error?: string }>(ctx, 'GET', `/v3/app/knowledge/${other}`);
      expect(failedBase.data.status).toBe('failed');

      expect(await search(ctx, other, 'bicycles basement')).toHaveLength(1);
      const deleted = await call(ctx, 'DELETE', `/v3/app/knowledge/${other}/documents/${kept.data.documentId}`);
      expect(deleted.error_msg).toBe('');
      expect(await search(ctx, other, 'bicycles basement')).toEqual([]);
      expect((await documents(ctx, other)).map((d) => d.title)).toEqual(['Broken']);
      const missing = await call(ctx, 'DELETE', `/v3/app/knowledge/${other}/documents/${kept.data.documentId}`);
      expect(missing.error_code).toBe(10007);
    });

    it('refuses a request without url or text, or text without a title', async () => {
      expect((await add(ctx, base, {})).error_msg).toContain('url or text is required');
      expect((await add(ctx, base, { text: 'x' })).error_msg).toContain('title is required');
      expect((await add(ctx, base, { text: 'x', title: 'X', mediaType: 'image/png' })).error_msg).toContain('mediaType');
    });
  },
  { WORKERS: '0' },
  { sweeps: false },
);

describeApi(
  'knowledge documents from private URLs',
  (ctx) => {
    let server: Server;
    beforeAll(async () => {
      server = await pageServer();
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('fetches the URL when ATTACHMENT_FETCH_PRIVATE is set, and search finds its passage', async () => {
      const base = await newBase(ctx, 'Remote');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes.md`;
      const added = await add(ctx, base, { url });
      expect(added.error_msg).toBe('');
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const [doc] = await documents(ctx, base);
      expect(doc).toMatchObject({ title: 'Remote notes', mediaType: 'text/markdown', status: 'ready', url });
      const [hit] = await search(ctx, base, 'lighthouse gulls');
      expect(hit!.source).toMatchObject({ type: 'document', documentId: added.data.documentId, title: 'Remote notes' });
    });
  },
  { WORKERS: '0', ATTACHMENT_FETCH_PRIVATE: 'true' },
  { sweeps: false },
);
