import { beforeAll, expect, it } from 'vitest';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Record writes keep a worksheet source's passages current through the durable job queue: each
 * write enqueues one `knowledge.reindex` job in its own transaction (docs/knowledge.md, "Indexing").
 */

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0);

interface Hit {
  content: string;
  source: { rowId?: string };
}

/** The re-index jobs waiting, with their payloads, oldest first. */
async function queued(ctx: ApiContext): Promise<Array<{ worksheetId: string; rowIds: string[] }>> {
  const found = await ctx.database.db.selectFrom('background_jobs').select(['payload', 'created_at', 'id']).where('kind', '=', 'knowledge.reindex').where('status', '=', 'queued').orderBy('created_at').orderBy('id').execute();
  return found.map((row) => JSON.parse(row.payload) as { worksheetId: string; rowIds: string[] });
}

async function passagesOf(ctx: ApiContext, rowId: string): Promise<string[]> {
  const found = await ctx.database.db.selectFrom('knowledge_passages').select('content').where('row_id', '=', rowId).execute();
  return found.map((p) => p.content);
}

describeApi(
  'knowledge bases: records written are re-indexed',
  (ctx) => {
    let sheet: Sheet;
    let other: Sheet;
    let base: string;
    const rows = (s: Sheet = sheet) => `/v3/app/worksheets/${s.id}/rows`;

    async function search(query: string): Promise<Hit[]> {
      const found = await ctx.call<{ results: Hit[] }>('POST', '/v3/app/knowledge/search', { knowledgeId: base, query, mode: 'keyword', topK: 20 });
      expect(found.body.error_msg).toBe('');
      return found.body.data.results;
    }

    async function create(fields: unknown[], s: Sheet = sheet, more: Record<string, unknown> = {}): Promise<string> {
      const made = await ctx.call<{ id: string }>('POST', rows(s), { fields, ...more });
      expect(made.body.error_msg).toBe('');
      return made.body.data.id;
    }

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Notes', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Body', alias: 'body', type: '2' },
        { name: 'Tag', alias: 'tag', type: '2' },
      ]);
      other = await makeSheet(ctx, 'Elsewhere', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Notes', sources: [{ worksheetId: sheet.id, fieldIds: ['title', 'body'] }] });
      expect(made.body.error_msg).toBe('');
      base = made.body.data.id;
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
    });

    it('indexes a created record, re-indexes its update, removes it when deleted and brings it back when restored', async () => {
      const id = await create([{ id: 'title', value: 'Kettle descaling' }, { id: 'body', value: 'Use citric acid monthly' }]);
      expect(await queued(ctx)).toEqual([{ worksheetId: sheet.id, rowIds: [id] }]);
      expect(await search('citric')).toEqual([]);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      expect((await search('citric')).map((h) => h.source.rowId)).toEqual([id]);

      // The indexed field changes: the old words are gone, the new ones found.
      expect((await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'body', value: 'Use white vinegar weekly' }] })).body.error_msg).toBe('');
      expect(await queued(ctx)).toHaveLength(1);
      await ctx.app.jobs.runUntilIdle();
      expect(await search('citric')).toEqual([]);
      expect((await search('vinegar')).map((h) => h.source.rowId)).toEqual([id]);

      // A field no source indexes: re-indexed all the same, still one passage.
      expect((await ctx.call('PATCH', `${rows()}/${id}`, { fields: [{ id: 'tag', value: 'kitchen' }] })).body.error_msg).toBe('');
      expect(await queued(ctx)).toHaveLength(1);
      await ctx.app.jobs.runUntilIdle();
      expect(await passagesOf(ctx, id)).toEqual(['Title: Kettle descaling\nBody: Use white vinegar weekly']);

      expect((await ctx.call('DELETE', `${rows()}/${id}`)).body.error_code).toBe(1);
      expect(await queued(ctx)).toHaveLength(1);
      await ctx.app.jobs.runUntilIdle();
      expect(await search('vinegar')).toEqual([]);
      expect(await passagesOf(ctx, id)).toEqual([]);

      expect((await ctx.call('POST', `${rows()}/${id}/restore`)).body.error_msg).toBe('');
      expect(await queued(ctx)).toHaveLength(1);
      await ctx.app.jobs.runUntilIdle();
      expect((await search('vinegar')).map((h) => h.source.rowId)).toEqual([id]);
    });

    it('enqueues one job for a batch of 50 records, and jobs for the same record may run in any order', async () => {
      const made = await ctx.call<{ rowIds: string[] }>('POST', `${rows()}/batch`, { rows: Array.from({ length: 50 }, (_, i) => ({ fields: [{ id: 'title', value: `Batch note ${i}` }, { id: 'body', value: `parcel${i}` }] })) });
      expect(made.body.error_msg).toBe('');
      expect(await queued(ctx)).toEqual([{ worksheetId: sheet.id, rowIds: made.body.data.rowIds }]);
      // A second write before the first job ran: whichever runs first, both read the record as it is.
      const first = made.body.data.rowIds[0]!;
      expect((await ctx.call('PATCH', `${rows()}/${first}`, { fields: [{ id: 'body', value: 'rewritten' }] })).body.error_msg).toBe('');
      expect(await queued(ctx)).toHaveLength(2);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      expect((await search('parcel7')).map((h) => h.source.rowId)).toEqual([made.body.data.rowIds[7]]);
      expect(await search('parcel0')).toEqual([]);
      expect(await passagesOf(ctx, first)).toEqual(['Title: Batch note 0\nBody: rewritten']);
    });

    it('enqueues nothing for a worksheet no base indexes, nor for a write that rolls back', async () => {
      await create([{ id: 'title', value: 'Unindexed' }], other);
      expect(await queued(ctx)).toEqual([]);
      // The second record lacks its required title: the whole batch rolls back.
      const failed = await ctx.call('POST', `${rows()}/batch`, { rows: [{ fields: [{ id: 'title', value: 'Fine' }] }, { fields: [{ id: 'body', value: 'no title' }] }] });
      expect(failed.body.success).toBe(false);
      expect(await queued(ctx)).toEqual([]);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
    });

    it('re-indexes writes that trigger no workflow (`triggerWorkflow: false`)', async () => {
      const id = await create([{ id: 'title', value: 'Quiet write' }, { id: 'body', value: 'marmalade' }], sheet, { triggerWorkflow: false });
      expect(await queued(ctx)).toEqual([{ worksheetId: sheet.id, rowIds: [id] }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await search('marmalade')).map((h) => h.source.rowId)).toEqual([id]);
    });

    it('starts re-indexing a worksheet as soon as a base indexes it, and stops when no base does', async () => {
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Elsewhere', sources: [{ worksheetId: other.id, fieldIds: ['title'] }] });
      await ctx.app.jobs.runUntilIdle();
      const id = await create([{ id: 'title', value: 'Now indexed' }], other);
      expect(await queued(ctx)).toEqual([{ worksheetId: other.id, rowIds: [id] }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await ctx.call('DELETE', `/v3/app/knowledge/${made.body.data.id}`)).body.error_code).toBe(1);
      await create([{ id: 'title', value: 'Not any more' }], other);
      expect(await queued(ctx)).toEqual([]);
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW, sweeps: false },
);


describeApi(
  'knowledge bases: records reached through relations and rollups are re-indexed',
  (ctx) => {
    let budgets: Sheet;
    let spends: Sheet;
    let budget: string;

    beforeAll(async () => {
      budgets = await makeSheet(ctx, 'Budgets', [{ name: 'Budget', alias: 'title', type: '2', isTitle: true }]);
      spends = await makeSheet(ctx, 'Spends', [
        { name: 'Spend', alias: 'title', type: '2', isTitle: true },
        { name: 'Amount', alias: 'amount', type: '6' },
        { name: 'Budget', alias: 'budget', type: '29', subType: 1, dataSource: budgets.id, relation: { bidirectional: true } },
      ]);
      const got = await ctx.call<{ fields: Array<{ id: string; name: string }> }>('GET', `/v3/app/worksheets/${budgets.id}`);
      const reverse = got.body.data.fields.find((f) => f.name === 'Spends')!.id;
      const added = await ctx.call('POST', `/v3/app/worksheets/${budgets.id}`, { addFields: [{ name: 'Spent', alias: 'spent', type: 'Rollup', config: { relationField: reverse, sourceField: 'amount', aggregation: 'SUM' } }] });
      expect(added.body.error_msg).toBe('');
      const rule = await ctx.call('POST', `/v3/app/worksheets/${budgets.id}/rules`, { name: 'Cap', condition: { type: 'condition', field: 'spent', operator: 'gt', value: 100 }, message: 'The budget is spent' });
      expect(rule.body.error_msg).toBe('');
      budget = await createRecord(ctx, budgets, [{ id: 'title', value: 'Travel' }]);
      const made = await ctx.call('POST', '/v3/app/knowledge', { name: 'Money', sources: [{ worksheetId: budgets.id, fieldIds: ['title', 'spent'] }, { worksheetId: spends.id, fieldIds: ['title'] }] });
      expect(made.body.error_msg).toBe('');
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      expect(await passagesOf(ctx, budget)).toEqual(['Budget: Travel\nSpent: 0']);
    });

    const spend = (title: string, amount: number) => ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${spends.id}/rows`, { fields: [{ id: 'title', value: title }, { id: 'amount', value: amount }, { id: 'budget', value: [budget] }] });

    it('re-indexes the related record whose rollup a write changed, beside the record written', async () => {
      const written = await spend('Train', 60);
      expect(written.body.error_msg).toBe('');
      const jobs = await queued(ctx);
      expect(jobs).toHaveLength(2);
      expect(jobs).toEqual(expect.arrayContaining([{ worksheetId: spends.id, rowIds: [written.body.data.id] }, { worksheetId: budgets.id, rowIds: [budget] }]));
      expect(await ctx.app.jobs.runUntilIdle()).toBe(2);
      expect(await passagesOf(ctx, budget)).toEqual(['Budget: Travel\nSpent: 60']);
      expect(await passagesOf(ctx, written.body.data.id)).toEqual(['Spend: Train']);

      // Only a computed value of the budget changes (its relation does not): it is re-indexed too.
      expect((await ctx.call('PATCH', `/v3/app/worksheets/${spends.id}/rows/${written.body.data.id}`, { fields: [{ id: 'amount', value: 70 }] })).body.error_msg).toBe('');
      expect(await queued(ctx)).toEqual(expect.arrayContaining([{ worksheetId: spends.id, rowIds: [written.body.data.id] }, { worksheetId: budgets.id, rowIds: [budget] }]));
      await ctx.app.jobs.runUntilIdle();
      expect(await passagesOf(ctx, budget)).toEqual(['Budget: Travel\nSpent: 70']);
    });

    it('enqueues nothing when the write rolls back after the written records were handled (a related record breaks a rule)', async () => {
      const over = await spend('Hotel', 40);
      expect(over.body.error_code).toBe(430021);
      expect(await queued(ctx)).toEqual([]);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
    });
  },
  { WORKERS: '0' },
  { clock: () => NOW, sweeps: false },
);

let clock = NOW;

describeApi(
  'knowledge bases: a re-index that keeps failing',
  (ctx) => {
    it('is retried with the queue backoff, then marks the source and its base failed with the reason', async () => {
      const sheet = await makeSheet(ctx, 'Failing', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Failing', sources: [{ worksheetId: sheet.id, fieldIds: ['title'] }] });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      // The base's embedder is one this server no longer has: every re-index fails.
      await ctx.database.db.updateTable('knowledge_bases').set({ embedder: JSON.stringify({ kind: 'openai-compatible', model: 'gone', dimensions: 8 }) }).where('id', '=', made.body.data.id).execute();
      await createRecord(ctx, sheet, [{ id: 'title', value: 'Doomed' }]);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      // A failed attempt waits for its retry: nothing is due at the same instant, the base is unchanged.
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      expect((await ctx.call<{ status: string }>('GET', `/v3/app/knowledge/${made.body.data.id}`)).body.data.status).toBe('ready');
      for (let attempt = 2; attempt <= 5; attempt++) {
        clock += 10 * 60_000;
        expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      }
      const failed = await ctx.call<{ status: string; error: string; sources: Array<{ status: string; error: string }> }>('GET', `/v3/app/knowledge/${made.body.data.id}`);
      const reason = 're-indexing 1 written record(s) failed: this knowledge base embeds with the model "gone" of an OpenAI-compatible service, but EMBEDDINGS_URL is not set on this server (docs/operations.md, "Knowledge bases and chatbots")';
      expect(failed.body.data).toMatchObject({ status: 'failed', error: reason, sources: [{ status: 'failed', error: reason }] });
    });
  },
  { WORKERS: '0' },
  { clock: () => clock, sweeps: false },
);
