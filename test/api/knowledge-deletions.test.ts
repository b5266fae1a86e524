import { afterAll, expect, it } from 'vitest';
import { createAppWithKey } from '../../src/modules/setup/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { startFakeModelServer } from '../helpers/fake-model-server.js';
import { createRecord, makeSheet } from '../helpers/record-fixtures.js';

/**
 * What knowledge bases and chatbots do when what they are built on is deleted
 * (docs/knowledge.md, "Worksheet, field and application deletion"): a deleted worksheet takes its
 * sources and passages, a deleted field is dropped from the sources indexing it (re-indexed), a
 * deleted base leaves the chatbots answering from it, and a deleted application leaves no row of its bases, documents, passages, chatbots, conversations
 * or messages, nor a document's bytes in the files store.
 */

const model = await startFakeModelServer();
afterAll(() => model.close());

interface SourceOut {
  worksheetId: string;
  fieldIds: string[];
  status: string;
}
interface BaseOut {
  sources: SourceOut[];
  documentCount: number;
  chunkCount: number;
  status: string;
}
interface Hit {
  content: string;
  source: { worksheetId?: string; rowId?: string; fieldIds?: string[] };
}

async function search(ctx: ApiContext, knowledgeId: string, query: string, headers?: Record<string, string>): Promise<Hit[]> {
  const found = await ctx.call<{ results: Hit[] }>('POST', '/v3/app/knowledge/search', { knowledgeId, query, mode: 'keyword', topK: 50 }, headers);
  expect(found.body.error_msg).toBe('');
  return found.body.data.results;
}

async function base(ctx: ApiContext, id: string): Promise<BaseOut> {
  const got = await ctx.call<BaseOut>('GET', `/v3/app/knowledge/${id}`);
  expect(got.body.error_msg).toBe('');
  return got.body.data;
}

async function createBase(ctx: ApiContext, name: string, sources: Array<{ worksheetId: string; fieldIds: string[] }>, headers?: Record<string, string>): Promise<string> {
  const made = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name, sources }, headers);
  expect(made.body.error_msg).toBe('');
  return made.body.data.id;
}

async function passageCount(ctx: ApiContext, where: { knowledgeId?: string; sourceId?: string }): Promise<number> {
  let query = ctx.database.db.selectFrom('knowledge_passages').select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (where.knowledgeId) query = query.where('knowledge_id', '=', where.knowledgeId);
  if (where.sourceId) query = query.where('source_id', '=', where.sourceId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

async function sourceIdsOf(ctx: ApiContext, worksheetId: string): Promise<string[]> {
  return (await ctx.database.db.selectFrom('knowledge_sources').select('id').where('worksheet_id', '=', worksheetId).execute()).map((row) => row.id);
}

describeApi(
  'knowledge bases when worksheets, fields and applications are deleted',
  (ctx) => {
    it('drops a deleted worksheet\'s sources and passages: search finds none of them, counts and status follow', async () => {
      const fields = [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Body', alias: 'body', type: '2' },
      ];
      const doomed = await makeSheet(ctx, 'Doomed notes', fields);
      const kept = await makeSheet(ctx, 'Kept notes', fields);
      const doomedRows = [
        await createRecord(ctx, doomed, [{ id: 'title', value: 'Zephyr one' }, { id: 'body', value: 'A zephyr in the doomed sheet' }]),
        await createRecord(ctx, doomed, [{ id: 'title', value: 'Zephyr two' }, { id: 'body', value: 'Another zephyr, doomed too' }]),
      ];
      const keptRow = await createRecord(ctx, kept, [{ id: 'title', value: 'Zephyr kept' }, { id: 'body', value: 'This zephyr stays' }]);
      const both = await createBase(ctx, 'Both', [
        { worksheetId: doomed.id, fieldIds: ['title', 'body'] },
        { worksheetId: kept.id, fieldIds: ['title', 'body'] },
      ]);
      const only = await createBase(ctx, 'Only the doomed', [{ worksheetId: doomed.id, fieldIds: ['title'] }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await search(ctx, both, 'zephyr')).map((h) => h.source.rowId).sort()).toEqual([...doomedRows, keptRow].sort());
      expect((await base(ctx, both)).chunkCount).toBe(3);
      const doomedSources = await sourceIdsOf(ctx, doomed.id);
      expect(doomedSources).toHaveLength(2);

      expect((await ctx.call('DELETE', `/v3/app/worksheets/${doomed.id}`)).body.error_msg).toBe('');

      // Gone at once, in the deletion's transaction: no job needs to run first.
      expect((await search(ctx, both, 'zephyr')).map((h) => h.source.rowId)).toEqual([keptRow]);
      expect(await search(ctx, only, 'zephyr')).toEqual([]);
      expect(await base(ctx, both)).toMatchObject({ status: 'ready', chunkCount: 1, sources: [{ worksheetId: kept.id, fieldIds: [kept.field.title, kept.field.body], status: 'ready' }] });
      expect((await base(ctx, both)).sources).toHaveLength(1);
      expect(await base(ctx, only)).toMatchObject({ status: 'ready', chunkCount: 0, sources: [] });
      expect(await sourceIdsOf(ctx, doomed.id)).toEqual([]);
      for (const sourceId of doomedSources) expect(await passageCount(ctx, { sourceId })).toBe(0);
      // Jobs left for the deleted worksheet find nothing to do and fail nothing.
      await ctx.app.jobs.runUntilIdle();
      expect(await base(ctx, both)).toMatchObject({ status: 'ready', chunkCount: 1 });
    });

    it('drops a deleted field from the sources indexing it, re-indexes them, and keeps searching their other fields', async () => {
      const sheet = await makeSheet(ctx, 'Recipes', [
        { name: 'Dish', alias: 'dish', type: '2', isTitle: true },
        { name: 'Method', alias: 'method', type: '2' },
        { name: 'Origin', alias: 'origin', type: '2' },
      ]);
      const rowIds = [
        await createRecord(ctx, sheet, [{ id: 'dish', value: 'Tagine' }, { id: 'method', value: 'Braise slowly with saffron' }, { id: 'origin', value: 'Morocco' }]),
        await createRecord(ctx, sheet, [{ id: 'dish', value: 'Risotto' }, { id: 'method', value: 'Stir with saffron and stock' }, { id: 'origin', value: 'Milan' }]),
      ];
      const recipes = await createBase(ctx, 'Recipes', [{ worksheetId: sheet.id, fieldIds: ['dish', 'method'] }]);
      const methods = await createBase(ctx, 'Methods only', [{ worksheetId: sheet.id, fieldIds: ['method'] }]);
      const origins = await createBase(ctx, 'Origins', [{ worksheetId: sheet.id, fieldIds: ['origin'] }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await search(ctx, recipes, 'saffron')).map((h) => h.source.rowId).sort()).toEqual([...rowIds].sort());
      const methodsSource = (await ctx.database.db.selectFrom('knowledge_sources').select('id').where('knowledge_id', '=', methods).executeTakeFirstOrThrow()).id;

      const removed = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}`, { removeFields: ['method'] });
      expect(removed.body.error_msg).toBe('');

      // At once: the field is out of the sources, which wait for their re-indexing, and no passage
      // holding the removed field's text is found meanwhile.
      expect(await base(ctx, recipes)).toMatchObject({ status: 'indexing', sources: [{ fieldIds: [sheet.field.dish], status: 'queued' }] });
      expect(await search(ctx, recipes, 'saffron')).toEqual([]);
      // A source left with no field goes, with its passages; a source not naming the field stays as it was.
      expect(await base(ctx, methods)).toMatchObject({ status: 'ready', chunkCount: 0, sources: [] });
      expect(await passageCount(ctx, { sourceId: methodsSource })).toBe(0);
      expect(await base(ctx, origins)).toMatchObject({ status: 'ready', chunkCount: 2, sources: [{ fieldIds: [sheet.field.origin], status: 'ready' }] });

      expect(await ctx.app.jobs.runUntilIdle()).toBeGreaterThanOrEqual(1);
      expect(await base(ctx, recipes)).toMatchObject({ status: 'ready', chunkCount: 2, sources: [{ fieldIds: [sheet.field.dish], status: 'ready' }] });
      expect(await search(ctx, recipes, 'saffron')).toEqual([]);
      const tagine = await search(ctx, recipes, 'tagine');
      expect(tagine.map((h) => [h.content, h.source.rowId, h.source.fieldIds])).toEqual([['Dish: Tagine', rowIds[0], [sheet.field.dish]]]);
      // Writes keep working on the source as it is now.
      const added = await createRecord(ctx, sheet, [{ id: 'dish', value: 'Paella' }, { id: 'origin', value: 'Valencia' }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await search(ctx, recipes, 'paella')).map((h) => h.source.rowId)).toEqual([added]);
    });

    it('drops a relation field removed with the worksheet it relates to from the sources of the other worksheet', async () => {
      const suppliers = await makeSheet(ctx, 'Suppliers', [{ name: 'Name', alias: 'name', type: '2', isTitle: true }]);
      const parts = await makeSheet(ctx, 'Parts', [
        { name: 'Part', alias: 'part', type: '2', isTitle: true },
        { name: 'Supplier', alias: 'supplier', type: '29', subType: 1, dataSource: suppliers.id },
      ]);
      const acme = await createRecord(ctx, suppliers, [{ id: 'name', value: 'Acme gears' }]);
      const part = await createRecord(ctx, parts, [{ id: 'part', value: 'Sprocket' }, { id: 'supplier', value: [acme] }]);
      const catalogue = await createBase(ctx, 'Catalogue', [{ worksheetId: parts.id, fieldIds: ['part', 'supplier'] }]);
      await ctx.app.jobs.runUntilIdle();
      expect((await search(ctx, catalogue, 'acme')).map((h) => h.source.rowId)).toEqual([part]);

      expect((await ctx.call('DELETE', `/v3/app/worksheets/${suppliers.id}`)).body.error_msg).toBe('');
      expect(await base(ctx, catalogue)).toMatchObject({ status: 'indexing', sources: [{ fieldIds: [parts.field.part], status: 'queued' }] });
      await ctx.app.jobs.runUntilIdle();
      expect(await base(ctx, catalogue)).toMatchObject({ status: 'ready', chunkCount: 1 });
      expect(await search(ctx, catalogue, 'acme')).toEqual([]);
      expect((await search(ctx, catalogue, 'sprocket')).map((h) => h.content)).toEqual(['Part: Sprocket']);
    });

    it('takes a deleted base out of the chatbots answering from it, which keep answering from the others', async () => {
      const sheet = await makeSheet(ctx, 'Birds', [{ name: 'Bird', alias: 'bird', type: '2', isTitle: true }]);
      await createRecord(ctx, sheet, [{ id: 'bird', value: 'The kea is a clever parrot' }]);
      const gone = await createBase(ctx, 'Gone', [{ worksheetId: sheet.id, fieldIds: ['bird'] }]);
      const stays = await createBase(ctx, 'Stays', [{ worksheetId: sheet.id, fieldIds: ['bird'] }]);
      await ctx.app.jobs.runUntilIdle();
      const bot = await ctx.call<{ id: string }>('POST', '/v3/app/chatbots', { name: 'Birder', knowledgeIds: [gone, stays] });
      expect(bot.body.error_msg).toBe('');
      expect((await ctx.call('DELETE', `/v3/app/knowledge/${gone}`)).body.error_msg).toBe('');
      expect((await ctx.call<{ knowledgeIds: string[] }>('GET', `/v3/app/chatbots/${bot.body.data.id}`)).body.data.knowledgeIds).toEqual([stays]);
      model.answer = () => 'A clever parrot [1].';
      const asked = await ctx.call<{ citations: Array<{ source: { knowledgeId: string } }> }>('POST', `/v3/app/chatbots/${bot.body.data.id}/messages`, { message: 'Which parrot is clever?' });
      expect(asked.body.error_msg).toBe('');
      expect(asked.body.data.citations.map((c) => c.source.knowledgeId)).toEqual([stays]);
    });

    it('leaves no row of an application\'s bases, documents, passages, chatbots, conversations or messages when it is deleted, nor bytes in the files store', async () => {
      const other = await createAppWithKey(ctx.database.db, 'Doomed app', Date.now());
      const headers = { 'SVC-Appkey': other.appKey, 'SVC-Sign': other.sign };
      const sheet = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Notes', fields: [{ name: 'Text', alias: 'text', type: '2', isTitle: true }] }, headers);
      expect(sheet.body.error_msg).toBe('');
      const worksheetId = sheet.body.data.worksheetId;
      expect((await ctx.call('POST', `/v3/app/worksheets/${worksheetId}/rows`, { fields: [{ id: 'text', value: 'the quokka note' }] }, headers)).body.error_msg).toBe('');
      const kb = await createBase(ctx, 'Theirs', [{ worksheetId, fieldIds: ['text'] }], headers);
      const ingested = await ctx.call<{ documentId: string }>('POST', `/v3/app/knowledge/${kb}/documents`, { text: '# Quokkas\n\nA quokka smiles.', title: 'Quokkas', mediaType: 'text/markdown' }, headers);
      expect(ingested.body.error_msg).toBe('');
      await ctx.app.jobs.runUntilIdle();
      expect((await search(ctx, kb, 'quokka', headers)).map((h) => h.source.worksheetId ?? 'document').sort()).toEqual(['document', worksheetId].sort());
      // A second document still waiting for its ingestion: its bytes are in the files store.
      const waiting = await ctx.call<{ documentId: string }>('POST', `/v3/app/knowledge/${kb}/documents`, { text: 'Quokkas live on Rottnest Island.', title: 'Where' }, headers);
      expect(waiting.body.error_msg).toBe('');
      const blob = `knowledge-documents/${waiting.body.data.documentId}`;
      expect(await ctx.app.files.store.get(blob)).not.toBeNull();
      model.answer = () => 'Quokkas smile [1].';
      const bot = await ctx.call<{ id: string }>('POST', '/v3/app/chatbots', { name: 'Quokka bot', knowledgeIds: [kb] }, headers);
      expect(bot.body.error_msg).toBe('');
      const asked = await ctx.call<{ conversationId: string }>('POST', `/v3/app/chatbots/${bot.body.data.id}/messages`, { message: 'Do quokkas smile?' }, headers);
      expect(asked.body.error_msg).toBe('');
      const conversationId = asked.body.data.conversationId;
      // This application's own base and chatbot, which must stay.
      const mine = await makeSheet(ctx, 'Mine', [{ name: 'Text', alias: 'text', type: '2', isTitle: true }]);
      await createRecord(ctx, mine, [{ id: 'text', value: 'my quokka' }]);
      const myBase = await createBase(ctx, 'Mine', [{ worksheetId: mine.id, fieldIds: ['text'] }]);
      const myBot = await ctx.call<{ id: string }>('POST', '/v3/app/chatbots', { name: 'Mine', knowledgeIds: [myBase] });
      await ctx.app.jobs.runUntilIdle();

      expect((await ctx.call('DELETE', '/v3/app', undefined, headers)).body.error_msg).toBe('');

      const db = ctx.database.db;
      const left = {
        bases: await db.selectFrom('knowledge_bases').select('id').where('app_id', '=', other.appId).execute(),
        sources: await db.selectFrom('knowledge_sources').select('id').where((eb) => eb.or([eb('knowledge_id', '=', kb), eb('worksheet_id', '=', worksheetId)])).execute(),
        documents: await db.selectFrom('knowledge_documents').select('id').where('knowledge_id', '=', kb).execute(),
        passages: await passageCount(ctx, { knowledgeId: kb }),
        chatbots: await db.selectFrom('chatbots').select('id').where('app_id', '=', other.appId).execute(),
        conversations: await db.selectFrom('chatbot_conversations').select('id').where('chatbot_id', '=', bot.body.data.id).execute(),
        messages: await db.selectFrom('chatbot_messages').select('seq').where('conversation_id', '=', conversationId).execute(),
        bytes: await ctx.app.files.store.get(blob),
      };
      expect(left).toEqual({ bases: [], sources: [], documents: [], passages: 0, chatbots: [], conversations: [], messages: [], bytes: null });
      // The waiting document's job finds nothing and fails nothing; this application's own are untouched.
      await ctx.app.jobs.runUntilIdle();
      expect(await base(ctx, myBase)).toMatchObject({ status: 'ready', chunkCount: 1 });
      expect((await ctx.call('GET', `/v3/app/chatbots/${myBot.body.data.id}`)).body.error_code).toBe(1);
      expect((await search(ctx, myBase, 'quokka')).map((h) => h.content)).toEqual(['Text: my quokka']);
    });
  },
  { LLM_URL: model.url, LLM_MODEL: 'fake-chat', WORKERS: '0' },
);
