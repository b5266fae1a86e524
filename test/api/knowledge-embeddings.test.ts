import { expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { useFakeEmbeddings } from '../helpers/fake-embeddings.js';
import { makeSheet } from '../helpers/record-fixtures.js';

/**
 * Knowledge bases on an OpenAI-compatible embeddings service (EMBEDDINGS_URL, here a fake one on
 * loopback): a new base takes the service's model and learns its vector size, its records and queries
 * are embedded by it (on SQLite a vec0 table of that size), and a failing service makes a search
 * answer 503 or 502 naming it, while keyword search goes on without it.
 */

const env: Record<string, string> = { WORKERS: '0' };
const fake = useFakeEmbeddings(env, 24);

describeApi(
  'knowledge bases with an embeddings service',
  (ctx) => {
    it('embeds records and queries with the service, and answers 503/502 when it fails', async () => {
      const sheet = await makeSheet(ctx, 'Notes', [{ name: 'Text', alias: 'text', type: '2', isTitle: true }]);
      const rows = ['refund within thirty days', 'reset your password', 'parcel tracking number'].map((value) => ({ fields: [{ id: 'text', value }] }));
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.error_msg).toBe('');
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Notes', sources: [{ worksheetId: sheet.id, fieldIds: ['text'] }] });
      expect(made.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      const base = await ctx.call<{ status: string; chunkCount: number; embedder: unknown }>('GET', `/v3/app/knowledge/${made.body.data.id}`);
      expect(base.body.data).toMatchObject({ status: 'ready', chunkCount: 3, embedder: { kind: 'openai', model: 'fake-embed', dimensions: 24 } });
      const search = (mode: string) => ctx.call<{ results: Array<{ source: { title: string } }> }>('POST', '/v3/app/knowledge/search', { knowledgeId: made.body.data.id, query: 'password reset', mode, topK: 1 });
      const found = await search('vector');
      expect(found.body.data.results.map((r) => r.source.title)).toEqual(['reset your password']);
      expect(fake.service.embeddingRequests.at(-1)?.input).toEqual(['password reset']);

      // The service fails its next request: keyword search does not ask it, hybrid search does.
      fake.service.failNext({ status: 503 });
      const asked = fake.service.embeddingRequests.length;
      expect((await search('keyword')).body.data.results.map((r) => r.source.title)).toEqual(['reset your password']);
      expect(fake.service.embeddingRequests.length).toBe(asked);
      const unavailable = await search('hybrid');
      expect([unavailable.status, unavailable.body.error_code]).toEqual([503, 0]);
      expect(unavailable.body.error_msg).toContain('the embeddings service failed');
      fake.service.failNext({ status: 400 });
      expect((await search('vector')).status).toBe(502);
    });
  },
  env,
  {},
);
