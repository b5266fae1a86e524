import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { useFakeEmbeddings } from '../helpers/fake-embeddings.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Changing a knowledge base's embedder re-embeds it as a job (docs/knowledge.md, "Re-embedding"):
 * searches answer from the old vectors until every passage has its new one, record writes made
 * meanwhile end up embedded by the new embedder, a failing service leaves the old vectors serving,
 * and the same embedder again starts nothing. Jobs are run by hand (`runUntilIdle`) on a clock the
 * test moves, so that a re-embedding can be caught half done.
 */

let now = Date.UTC(2026, 10, 25, 9, 0, 0);
const env: Record<string, string> = { WORKERS: '0', EMBEDDINGS_BATCH_SIZE: '2' };
const fake = useFakeEmbeddings(env, 24);

interface Base {
  status: string;
  error?: string;
  chunkCount: number;
  embedder: { kind: string; model: string; dimensions: number };
  reembedding?: { embedder: { kind: string; model: string; dimensions: number }; progress: number; total: number };
}

interface Hit {
  content: string;
  source: { type: string; title: string };
}

const NOTES = ['refund within thirty days', 'reset your password', 'parcel tracking number', 'invoice for the last quarter'];

async function notesSheet(ctx: ApiContext, name: string): Promise<Sheet> {
  const sheet = await makeSheet(ctx, name, [{ name: 'Text', alias: 'text', type: '2', isTitle: true }]);
  const rows = NOTES.map((value) => ({ fields: [{ id: 'text', value }] }));
  expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.error_msg).toBe('');
  return sheet;
}

async function getBase(ctx: ApiContext, id: string): Promise<Base> {
  const found = await ctx.call<Base>('GET', `/v3/app/knowledge/${id}`);
  expect(found.body.error_msg).toBe('');
  return found.body.data;
}

async function search(ctx: ApiContext, id: string, query: string, mode = 'vector'): Promise<Hit[]> {
  const found = await ctx.call<{ results: Hit[] }>('POST', '/v3/app/knowledge/search', { knowledgeId: id, query, mode, topK: 1 });
  expect(found.body.error_msg).toBe('');
  return found.body.data.results;
}

/** The service's requests since the `mark`th (the service is shared by the engines' runs). */
function requestsSince(mark: number) {
  return fake.service.embeddingRequests.slice(mark);
}

/** Whether the service was asked to embed this exact text (a query embedded by it) since the `mark`th request. */
function askedFor(mark: number, text: string, model?: string): boolean {
  return requestsSince(mark).some((r) => r.input.includes(text) && (model === undefined || r.model === model));
}

/** The base's serving vectors by size (vec0 tables on SQLite, the embedding column on PostgreSQL), and its staged ones. */
async function storedVectors(ctx: ApiContext, id: string): Promise<{ sizes: Record<number, number>; staged: number }> {
  const db = ctx.database.db;
  const sizes: Record<number, number> = {};
  if (ctx.engine === 'sqlite') {
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'knowledge_vectors_[0-9]*'`.execute(db);
    for (const { name } of tables.rows.filter((row) => /^knowledge_vectors_\d+$/.test(row.name))) {
      const n = Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(name)} WHERE knowledge_id = ${id}`.execute(db)).rows[0]!.n);
      if (n > 0) sizes[Number(name.slice('knowledge_vectors_'.length))] = n;
    }
  } else {
    const rows = await sql<{ size: number; n: string }>`SELECT cardinality(embedding) AS size, COUNT(*) AS n FROM knowledge_passages WHERE knowledge_id = ${id} AND embedding IS NOT NULL GROUP BY 1`.execute(db);
    for (const row of rows.rows) sizes[Number(row.size)] = Number(row.n);
  }
  const staged = Number((await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM knowledge_staged_vectors WHERE knowledge_id = ${id}`.execute(db)).rows[0]!.n);
  return { sizes, staged };
}

/** Re-embedding jobs waiting to run (failed ones stay in the queue's table, and are not counted). */
async function reembedJobs(ctx: ApiContext): Promise<number> {
  const found = await ctx.database.db.selectFrom('background_jobs').select('id').where('kind', '=', 'knowledge.reembed').where('status', '=', 'queued').execute();
  return found.length;
}

describeApi(
  'knowledge bases: changing the embedder re-embeds',
  (ctx) => {
    it('moves a built-in base to the service, answering from the old vectors until the switch', async () => {
      const mark = fake.service.embeddingRequests.length;
      const sheet = await notesSheet(ctx, 'Notes');
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Notes', embedder: 'builtin', sources: [{ worksheetId: sheet.id, fieldIds: ['text'] }] });
      expect(made.body.error_msg).toBe('');
      const id = made.body.data.id;
      expect((await ctx.call('POST', `/v3/app/knowledge/${id}/documents`, { title: 'Garden', text: 'Water the tomatoes every morning in summer.' })).body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect(await getBase(ctx, id)).toMatchObject({ status: 'ready', chunkCount: 5, embedder: { kind: 'builtin', model: 'hashed-ngrams-v1', dimensions: 256 } });
      expect(requestsSince(mark)).toHaveLength(0);

      // The probe passes, the first page (2 passages) passes, the second page's request fails (503: tried again later).
      fake.service.failNext({ pass: true }, { pass: true }, { status: 503 });
      const patched = await ctx.call<Base>('PATCH', `/v3/app/knowledge/${id}`, { embedder: { kind: 'openai-compatible', model: 'fake-embed-2' } });
      expect(patched.body.error_msg).toBe('');
      const next = { kind: 'openai', model: 'fake-embed-2', dimensions: 24 };
      expect(patched.body.data).toMatchObject({ status: 'reembedding', embedder: { kind: 'builtin' }, reembedding: { embedder: next, progress: 0, total: 5 } });
      expect(await reembedJobs(ctx)).toBe(1);

      await ctx.app.jobs.runUntilIdle();
      expect(await getBase(ctx, id)).toMatchObject({ status: 'reembedding', embedder: { kind: 'builtin' }, reembedding: { embedder: next, progress: 2, total: 5 } });
      expect(await storedVectors(ctx, id)).toEqual({ sizes: { 256: 5 }, staged: 2 });
      const listed = await ctx.call<{ knowledgeBases: Array<Base & { id: string }> }>('POST', '/v3/app/knowledge/list', { keyword: 'Notes' });
      expect(listed.body.data.knowledgeBases.find((b) => b.id === id)).toMatchObject({ status: 'reembedding', reembedding: { progress: 2, total: 5 } });
      // Put back with its attempts counted afresh: it had staged a page before the service failed.
      const job = await ctx.database.db.selectFrom('background_jobs').select(['status', 'attempts']).where('kind', '=', 'knowledge.reembed').where('status', '=', 'queued').execute();
      expect(job).toEqual([{ status: 'queued', attempts: 0 }]);
      // Searches go on with the built-in embedder's vectors: the service never sees the query.
      expect((await search(ctx, id, 'password reset')).map((h) => h.content)).toEqual(['Text: reset your password']);
      expect(askedFor(mark, 'password reset')).toBe(false);

      // A record written meanwhile is indexed by the base's embedder of the moment (built in)…
      const written = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields: [{ id: 'text', value: 'garden hose repair kit' }] });
      expect(written.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect((await search(ctx, id, 'hose repair')).map((h) => h.content)).toEqual(['Text: garden hose repair kit']);
      expect(askedFor(mark, 'hose repair')).toBe(false);

      // …and re-embedded with the rest once the job, tried again, goes on from its staged page.
      now += 60_000;
      await ctx.app.jobs.runUntilIdle();
      const done = await getBase(ctx, id);
      expect(done).toMatchObject({ status: 'ready', chunkCount: 6, embedder: next });
      expect(done.reembedding).toBeUndefined();
      expect(await storedVectors(ctx, id)).toEqual({ sizes: { 24: 6 }, staged: 0 });
      // The passages' 8-bit codes (what each process's in-memory vector index loads) moved with the vectors: 24 codes and a scale.
      const codes = await ctx.database.db.selectFrom('knowledge_passages').select('vector_codes').where('knowledge_id', '=', id).execute();
      expect(codes.map((row) => row.vector_codes?.byteLength)).toEqual([28, 28, 28, 28, 28, 28]);
      const embedded = requestsSince(mark).filter((r) => r.model === 'fake-embed-2').flatMap((r) => r.input);
      const firstPage = requestsSince(mark).find((r) => r.model === 'fake-embed-2' && r.input.length === 2)!.input;
      for (const text of firstPage) expect(embedded.filter((t) => t === text)).toHaveLength(1);

      // Queries are now embedded by the new model, and find record and document passages alike.
      expect((await search(ctx, id, 'hose repair')).map((h) => h.content)).toEqual(['Text: garden hose repair kit']);
      expect(fake.service.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-embed-2', input: ['hose repair'] });
      expect((await search(ctx, id, 'tomatoes summer')).map((h) => h.source.type)).toEqual(['document']);
      expect(fake.service.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-embed-2', input: ['tomatoes summer'] });
    });

    it('a failing service marks the base failed and leaves the old vectors serving; setting the embedder again retries', async () => {
      const sheet = await notesSheet(ctx, 'Failing');
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Failing', embedder: { kind: 'builtin' }, sources: [{ worksheetId: sheet.id, fieldIds: ['text'] }] });
      const id = made.body.data.id;
      await ctx.app.jobs.runUntilIdle();
      // The probe passes; the first page is refused for good (401: not tried again).
      fake.service.failNext({ pass: true }, { status: 401 });
      expect((await ctx.call('PATCH', `/v3/app/knowledge/${id}`, { embedder: 'openai-compatible' })).body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const failed = await getBase(ctx, id);
      expect(failed).toMatchObject({ status: 'failed', embedder: { kind: 'builtin' } });
      expect(failed.error).toMatch(/^re-embedding with the model "fake-embed" failed; the built-in embedder \(hashed-ngrams-v1\) still serves searches: .*401/);
      expect(failed.reembedding).toBeUndefined();
      expect(await storedVectors(ctx, id)).toEqual({ sizes: { 256: 4 }, staged: 0 });
      const asked = fake.service.embeddingRequests.length;
      expect((await search(ctx, id, 'parcel tracking')).map((h) => h.content)).toEqual(['Text: parcel tracking number']);
      expect(fake.service.embeddingRequests).toHaveLength(asked);

      expect((await ctx.call('PATCH', `/v3/app/knowledge/${id}`, { embedder: 'openai-compatible' })).body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const fixed = await getBase(ctx, id);
      expect(fixed).toMatchObject({ status: 'ready', embedder: { kind: 'openai', model: 'fake-embed', dimensions: 24 } });
      expect(fixed.error).toBeUndefined();
      expect((await search(ctx, id, 'parcel tracking')).map((h) => h.content)).toEqual(['Text: parcel tracking number']);
      expect(fake.service.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-embed', input: ['parcel tracking'] });
    });

    it('moves between two models of the same size', async () => {
      const sheet = await notesSheet(ctx, 'Same size');
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Same size', embedder: { kind: 'openai-compatible', model: 'fake-a' }, sources: [{ worksheetId: sheet.id, fieldIds: ['text'] }] });
      const id = made.body.data.id;
      await ctx.app.jobs.runUntilIdle();
      expect(await getBase(ctx, id)).toMatchObject({ status: 'ready', embedder: { kind: 'openai', model: 'fake-a', dimensions: 24 } });
      // Searched once before: each process's in-memory vectors of the base hold fake-a's, replaced at the switch.
      expect((await search(ctx, id, 'quarter invoice')).map((h) => h.content)).toEqual(['Text: invoice for the last quarter']);
      const patchedAt = fake.service.embeddingRequests.length;
      expect((await ctx.call('PATCH', `/v3/app/knowledge/${id}`, { embedder: { kind: 'openai', model: 'fake-b' } })).body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect(await getBase(ctx, id)).toMatchObject({ status: 'ready', embedder: { kind: 'openai', model: 'fake-b', dimensions: 24 } });
      expect(await storedVectors(ctx, id)).toEqual({ sizes: { 24: 4 }, staged: 0 });
      // The switch is in the vector change log (4 vectors stored by the indexing, 4 by the switch), which the in-memory indexes of every process apply.
      const logged = await ctx.database.db.selectFrom('knowledge_vector_changes').select('seq').where('knowledge_id', '=', id).execute();
      expect(logged).toHaveLength(8);
      expect((await search(ctx, id, 'quarter invoice')).map((h) => h.content)).toEqual(['Text: invoice for the last quarter']);
      expect(fake.service.embeddingRequests.at(-1)).toMatchObject({ model: 'fake-b', input: ['quarter invoice'] });
      expect(askedFor(patchedAt, 'quarter invoice', 'fake-a')).toBe(false);
    });

    it('embeds a document page again when the base switched while the page was being embedded', async () => {
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Switched under a document', embedder: { kind: 'openai-compatible', model: 'fake-a' } });
      const id = made.body.data.id;
      expect((await ctx.call('POST', `/v3/app/knowledge/${id}/documents`, { title: 'Garden', text: 'Water the tomatoes every morning in summer.' })).body.error_msg).toBe('');
      // The ingestion embeds its page with fake-a; the service holds the answer…
      const release = fake.service.holdNextEmbeddings();
      const arrived = fake.service.nextRequest();
      const ingesting = ctx.app.jobs.runUntilIdle();
      await arrived;
      // …while the base moves to the built-in embedder (no passages yet: the job switches at once).
      expect((await ctx.call('PATCH', `/v3/app/knowledge/${id}`, { embedder: 'builtin' })).body.error_msg).toBe('');
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect(await getBase(ctx, id)).toMatchObject({ embedder: { kind: 'builtin' } });
      release();
      await ingesting;
      // The page is added with the built-in embedder's vectors, not fake-a's.
      expect(await getBase(ctx, id)).toMatchObject({ status: 'ready', chunkCount: 1, embedder: { kind: 'builtin' } });
      expect(await storedVectors(ctx, id)).toEqual({ sizes: { 256: 1 }, staged: 0 });
      expect((await search(ctx, id, 'tomatoes summer')).map((h) => h.source.type)).toEqual(['document']);
    });

    it('calls a re-embedding off when the base’s own embedder is sent again before it ends', async () => {
      const sheet = await notesSheet(ctx, 'Called off');
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Called off', embedder: 'builtin', sources: [{ worksheetId: sheet.id, fieldIds: ['text'] }] });
      const id = made.body.data.id;
      await ctx.app.jobs.runUntilIdle();
      expect((await ctx.call<Base>('PATCH', `/v3/app/knowledge/${id}`, { embedder: 'openai-compatible' })).body.data.status).toBe('reembedding');
      // The embedder it is already being re-embedded to starts no second job.
      expect((await ctx.call<Base>('PATCH', `/v3/app/knowledge/${id}`, { embedder: 'openai-compatible' })).body.data.reembedding?.embedder.model).toBe('fake-embed');
      expect(await reembedJobs(ctx)).toBe(1);
      const back = await ctx.call<Base>('PATCH', `/v3/app/knowledge/${id}`, { embedder: 'builtin' });
      expect(back.body.data).toMatchObject({ status: 'ready', embedder: { kind: 'builtin' } });
      expect(back.body.data.reembedding).toBeUndefined();
      const mark = fake.service.embeddingRequests.length;
      // The queued job finds the change called off and ends without embedding or writing.
      await ctx.app.jobs.runUntilIdle();
      expect(requestsSince(mark)).toHaveLength(0);
      expect(await getBase(ctx, id)).toMatchObject({ status: 'ready', embedder: { kind: 'builtin' } });
      expect(await storedVectors(ctx, id)).toEqual({ sizes: { 256: 4 }, staged: 0 });
      expect(await reembedJobs(ctx)).toBe(0);
    });

    it('documents the embedder key in the OpenAPI document', async () => {
      const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> } }>> };
      for (const [path, method] of [['/v3/app/knowledge', 'post'], ['/v3/app/knowledge/{knowledge_id}', 'patch']] as const) {
        const properties = document.paths[path]![method]!.requestBody!.content['application/json']!.schema.properties;
        expect(properties.embedder?.description).toContain('"builtin"');
      }
    });

    it('starts nothing for the embedder a base has, and refuses a bad embedder naming it', async () => {
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Unchanged', embedder: 'builtin' });
      const id = made.body.data.id;
      const jobs = await reembedJobs(ctx);
      for (const embedder of ['builtin', { kind: 'builtin', model: 'hashed-ngrams-v1', dimensions: 256 }]) {
        const same = await ctx.call<Base>('PATCH', `/v3/app/knowledge/${id}`, { embedder });
        expect(same.body.error_msg).toBe('');
        expect(same.body.data).toMatchObject({ status: 'ready', embedder: { kind: 'builtin' } });
        expect(same.body.data.reembedding).toBeUndefined();
      }
      expect(await reembedJobs(ctx)).toBe(jobs);

      const refusals: Array<[unknown, number, string]> = [
        ['word2vec', 10002, 'embedder: one of builtin, openai-compatible, got "word2vec"'],
        [42, 10002, 'embedder: "builtin", "openai-compatible" or an object'],
        [{ model: 'x' }, 10001, 'embedder.kind is required'],
        [{ kind: 'builtin', model: 'bert' }, 10002, 'embedder.model: the built-in embedder is "hashed-ngrams-v1"'],
        [{ kind: 'openai-compatible', dimensions: 7 }, 10002, 'embedder.dimensions: "fake-embed" gives 24-dimensional vectors, not 7'],
        [{ kind: 'builtin', size: 3 }, 10002, 'embedder.size: not a key of embedder'],
      ];
      for (const [embedder, code, message] of refusals) {
        for (const [method, url] of [['PATCH', `/v3/app/knowledge/${id}`], ['POST', '/v3/app/knowledge']] as const) {
          const refused = await ctx.call(method, url, { name: 'Refused', embedder });
          expect([refused.status, refused.body.error_code, refused.body.error_msg]).toEqual([400, code, expect.stringContaining(message)]);
        }
      }
      expect(await reembedJobs(ctx)).toBe(jobs);
    });
  },
  env,
  { clock: () => now, sweeps: false },
);

describeApi(
  'knowledge bases: an embedder the server has no service for',
  (ctx) => {
    it('refuses the OpenAI-compatible embedder without EMBEDDINGS_URL, naming the setting', async () => {
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Offline' });
      for (const [method, url] of [['PATCH', `/v3/app/knowledge/${made.body.data.id}`], ['POST', '/v3/app/knowledge']] as const) {
        const refused = await ctx.call(method, url, { name: 'Offline', embedder: { kind: 'openai-compatible', model: 'nomic-embed-text' } });
        expect([refused.status, refused.body.error_code]).toEqual([400, 10002]);
        expect(refused.body.error_msg).toContain('embedder: "openai-compatible" embeds with an OpenAI-compatible service, but EMBEDDINGS_URL is not set on this server');
      }
    });
  },
  { WORKERS: '0' },
);
