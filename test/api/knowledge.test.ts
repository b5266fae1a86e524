import { beforeAll, expect, it } from 'vitest';
import { createAppWithKey } from '../../src/modules/setup/index.js';
import { describeApi, type ApiContext } from '../helpers/api-harness.js';
import { giveRole, memberWithToken } from '../helpers/people.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Knowledge bases through HTTP: create, read, change, delete, list; search in its three modes with
 * topK, thresholds and filters; the errors; and what a role that sees fewer records and fields may
 * find (docs/knowledge.md, "Permissions").
 */

interface SourceOut {
  type: string;
  worksheetId: string;
  fieldIds: string[];
  status: string;
  progress: number;
  total: number;
}
interface BaseOut {
  id: string;
  name: string;
  description: string;
  sources: SourceOut[];
  documentCount: number;
  chunkCount: number;
  status: string;
  embedder: { kind: string; model: string; dimensions: number };
  _createdAt: string;
  _updatedAt: string;
}
interface Hit {
  content: string;
  score: number;
  source: { type: string; knowledgeId: string; worksheetId?: string; rowId?: string; fieldIds?: string[]; title: string; chunkIndex: number };
}

const FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Body', alias: 'body', type: '2' },
  { name: 'Secret', alias: 'secret', type: '2' },
  { name: 'Level', alias: 'level', type: '2' },
];

/** Articles by title: body, secret, level. */
const ARTICLES: Array<[string, string, string, string]> = [
  ['Refund policy', 'Customers may return goods within 30 days for a full refund of the purchase price.', 'refunds cost us 4% of revenue', 'public'],
  ['Password reset', 'To reset a forgotten password, open the sign-in page and follow the emailed link.', '', 'public'],
  ['Shipping times', 'Parcels ship within two business days; international delivery takes a week.', 'carrier contract ends in March', 'internal'],
  ['Office coffee', 'The espresso machine on the third floor is cleaned every Friday.', 'supplier owes us a rebate', 'internal'],
  ['Invoice questions', 'Invoices are sent monthly by email; contact billing for corrections.', '', 'public'],
  ['Security incidents', 'Report phishing and lost laptops to the security desk at once.', 'last breach was in 2024', 'internal'],
];

async function call<T>(ctx: ApiContext, method: string, url: string, body?: unknown, headers?: Record<string, string>) {
  return (await ctx.call<T>(method, url, body, headers)).body;
}

async function search(ctx: ApiContext, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Hit[]> {
  const found = await call<{ results: Hit[] }>(ctx, 'POST', '/v3/app/knowledge/search', body, headers);
  expect(found.error_msg).toBe('');
  return found.data.results;
}

describeApi(
  'knowledge bases',
  (ctx) => {
    let sheet: Sheet;
    /** Record ids by title. */
    const record: Record<string, string> = {};
    let base: string;

    const titles = (hits: Hit[]) => hits.map((h) => h.source.title);

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Articles', FIELDS);
      const made = await call<{ rowIds: string[] }>(ctx, 'POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, {
        rows: ARTICLES.map(([title, body, secret, level]) => ({ fields: [{ id: 'title', value: title }, { id: 'body', value: body }, { id: 'secret', value: secret }, { id: 'level', value: level }] })),
      });
      expect(made.error_msg).toBe('');
      ARTICLES.forEach(([title], i) => (record[title] = made.data.rowIds[i]!));
      const created = await call<{ id: string }>(ctx, 'POST', '/v3/app/knowledge', { name: 'Help centre', description: 'Articles', sources: [{ type: 'worksheet', worksheetId: sheet.id, fieldIds: ['title', 'body'] }] });
      expect(created.error_msg).toBe('');
      base = created.data.id;
    });

    it('indexes a worksheet source in the background, with its state and counts', async () => {
      const queued = await call<BaseOut>(ctx, 'GET', `/v3/app/knowledge/${base}`);
      expect(queued.data).toMatchObject({ name: 'Help centre', description: 'Articles', status: 'indexing', chunkCount: 0, documentCount: 0 });
      expect(queued.data.sources).toEqual([{ type: 'worksheet', worksheetId: sheet.id, fieldIds: [sheet.field.title, sheet.field.body], status: 'queued', progress: 0, total: 0 }]);
      expect(await ctx.app.jobs.runUntilIdle()).toBe(1);
      const ready = await call<BaseOut>(ctx, 'GET', `/v3/app/knowledge/${base}`);
      expect(ready.data).toMatchObject({ status: 'ready', chunkCount: 6, embedder: { kind: 'builtin', model: 'hashed-ngrams-v1', dimensions: 256 } });
      expect(ready.data.sources[0]).toMatchObject({ status: 'ready', progress: 6, total: 6 });
    });

    it('searches in the three modes, each finding the passage that answers', async () => {
      for (const mode of ['hybrid', 'vector', 'keyword']) {
        const hits = await search(ctx, { knowledgeId: base, query: 'How do I reset my password?', mode });
        expect(hits[0]?.source, mode).toEqual({ type: 'record', knowledgeId: base, worksheetId: sheet.id, rowId: record['Password reset'], fieldIds: [sheet.field.title, sheet.field.body], title: 'Password reset', chunkIndex: 0 });
        expect(hits[0]?.content).toBe('Title: Password reset\nBody: To reset a forgotten password, open the sign-in page and follow the emailed link.');
        expect(hits[0]!.score).toBeGreaterThan(0);
      }
      // Keyword search matches whole words, case and accents folded; nothing matches nothing.
      expect(titles(await search(ctx, { knowledgeIds: [base], query: 'ESPRÉSSO', mode: 'keyword' }))).toEqual(['Office coffee']);
      expect(await search(ctx, { knowledgeIds: [base], query: 'zeppelin', mode: 'keyword' })).toEqual([]);
    });

    it('returns topK passages (5 by default), best first, and leaves out those under scoreThreshold', async () => {
      expect(await search(ctx, { knowledgeId: base, query: 'refund delivery invoices password', mode: 'vector' })).toHaveLength(5);
      const two = await search(ctx, { knowledgeId: base, query: 'refund delivery invoices password', mode: 'vector', topK: 2 });
      expect(two).toHaveLength(2);
      expect(two[0]!.score).toBeGreaterThanOrEqual(two[1]!.score);
      const all = await search(ctx, { knowledgeId: base, query: 'refund', mode: 'hybrid', topK: 100 });
      expect(all.length).toBeLessThanOrEqual(6);
      expect(all[0]!.source.title).toBe('Refund policy');
      // First in both rankings scores 1 in hybrid mode.
      expect(all[0]!.score).toBeCloseTo(1, 6);
      const strict = await search(ctx, { knowledgeId: base, query: 'refund', mode: 'vector', topK: 100, scoreThreshold: 0.2 });
      expect(strict.length).toBeGreaterThan(0);
      expect(strict.length).toBeLessThan(all.length);
      expect(strict.every((h) => h.score >= 0.2)).toBe(true);
      expect(await search(ctx, { knowledgeId: base, query: 'refund', scoreThreshold: 1.5 })).toEqual([]);
    });

    it('narrows record passages with a filter, in the caller scope', async () => {
      const filter = { worksheetId: sheet.id, tree: { type: 'condition', field: 'level', operator: 'eq', value: 'internal' } };
      const hits = await search(ctx, { knowledgeId: base, query: 'refund password shipping coffee invoices security', topK: 10, filter });
      expect(titles(hits).sort()).toEqual(['Office coffee', 'Security incidents', 'Shipping times']);
    });

    it('refuses bad searches, naming the parameter', async () => {
      const refused = async (body: Record<string, unknown>) => {
        const answer = await call(ctx, 'POST', '/v3/app/knowledge/search', body);
        return { code: answer.error_code, message: answer.error_msg };
      };
      expect(await refused({ knowledgeId: base })).toMatchObject({ code: 10001 });
      expect(await refused({ knowledgeId: base, query: '  ' })).toEqual({ code: 10001, message: 'query is required: the text to search for' });
      expect(await refused({ query: 'x' })).toEqual({ code: 10001, message: 'knowledgeIds (or knowledgeId) is required: the knowledge bases to search' });
      expect(await refused({ knowledgeId: base, query: 'x', topK: 0 })).toEqual({ code: 10002, message: 'topK: a whole number from 1 to 100, got 0' });
      expect(await refused({ knowledgeId: base, query: 'x', topK: 101 })).toEqual({ code: 10002, message: 'topK: a whole number from 1 to 100, got 101' });
      expect(await refused({ knowledgeId: base, query: 'x', mode: 'fuzzy' })).toEqual({ code: 10002, message: 'mode: one of hybrid, vector, keyword, got "fuzzy"' });
      expect(await refused({ knowledgeIds: [base, 'nope'], query: 'x' })).toEqual({ code: 10007, message: 'knowledge base "nope" does not exist in this application' });
      const other = await makeSheet(ctx, 'Elsewhere', [{ name: 'Name', alias: 'name', type: '2', isTitle: true }]);
      expect(await refused({ knowledgeId: base, query: 'x', filter: { worksheetId: other.id, tree: {} } })).toEqual({ code: 10002, message: 'filter.worksheetId: no knowledge base searched indexes the worksheet "Elsewhere"' });
      expect(await refused({ knowledgeId: base, query: 'x', filter: { worksheetId: sheet.id, tree: { type: 'condition', field: 'ghost', operator: 'eq', value: 1 } } })).toMatchObject({ code: 10002 });
    });

    it('refuses bad bases, naming the parameter; an unknown base is 10007', async () => {
      const refused = async (method: string, url: string, body?: unknown) => {
        const answer = await call(ctx, method, url, body);
        return { code: answer.error_code, message: answer.error_msg };
      };
      expect(await refused('POST', '/v3/app/knowledge', { name: ' ' })).toEqual({ code: 10001, message: 'name is required' });
      expect(await refused('POST', '/v3/app/knowledge', { name: 'x'.repeat(101) })).toEqual({ code: 10002, message: 'name: at most 100 characters' });
      expect(await refused('POST', '/v3/app/knowledge', { name: 'K', sources: [{ worksheetId: 'nope', fieldIds: ['title'] }] })).toEqual({ code: 10002, message: 'sources[0].worksheetId: no worksheet "nope" in this application' });
      expect(await refused('POST', '/v3/app/knowledge', { name: 'K', sources: [{ worksheetId: sheet.id, fieldIds: ['title', 'ghost'] }] })).toEqual({ code: 10002, message: 'sources[0].fieldIds[1]: no field "ghost" in the worksheet "Articles"' });
      expect(await refused('POST', '/v3/app/knowledge', { name: 'K', sources: [{ worksheetId: sheet.id, fieldIds: [] }] })).toEqual({ code: 10001, message: 'sources[0].fieldIds is required: the fields whose values are indexed' });
      expect(await refused('POST', '/v3/app/knowledge', { name: 'K', sources: [{ type: 'web', worksheetId: sheet.id, fieldIds: ['title'] }] })).toMatchObject({ code: 10002 });
      expect(await refused('GET', '/v3/app/knowledge/nope')).toEqual({ code: 10007, message: 'knowledge base "nope" does not exist in this application' });
      expect(await refused('PATCH', '/v3/app/knowledge/nope', { name: 'x' })).toMatchObject({ code: 10007 });
      expect(await refused('DELETE', '/v3/app/knowledge/nope')).toMatchObject({ code: 10007 });
    });

    it('lists bases newest first, by pages, with a name search', async () => {
      const second = await call<{ id: string }>(ctx, 'POST', '/v3/app/knowledge', { name: 'Sales playbook' });
      expect(second.error_msg).toBe('');
      const listed = await call<{ knowledgeBases: BaseOut[]; total: number }>(ctx, 'POST', '/v3/app/knowledge/list', {});
      expect(listed.data.total).toBe(2);
      expect(listed.data.knowledgeBases.map((b) => b.name)).toEqual(['Sales playbook', 'Help centre']);
      expect(listed.data.knowledgeBases[1]).toMatchObject({ id: base, chunkCount: 6, documentCount: 0, status: 'ready', sources: [{ type: 'worksheet', worksheetId: sheet.id }] });
      expect(listed.data.knowledgeBases[0]).toMatchObject({ status: 'ready', chunkCount: 0, sources: [] });
      const page = await call<{ knowledgeBases: BaseOut[]; total: number }>(ctx, 'POST', '/v3/app/knowledge/list', { pageIndex: 2, pageSize: 1 });
      expect([page.data.total, page.data.knowledgeBases.map((b) => b.name)]).toEqual([2, ['Help centre']]);
      const named = await call<{ knowledgeBases: BaseOut[]; total: number }>(ctx, 'POST', '/v3/app/knowledge/list', { keyword: 'PLAYBOOK' });
      expect([named.data.total, named.data.knowledgeBases.map((b) => b.id)]).toEqual([1, [second.data.id]]);
      expect((await call(ctx, 'POST', '/v3/app/knowledge/list', { pageSize: 101 })).error_code).toBe(10002);
      expect((await call(ctx, 'DELETE', `/v3/app/knowledge/${second.data.id}`)).error_code).toBe(1);
    });

    it('changes a base: a source with other fields is indexed again; a deleted base is gone with its passages', async () => {
      const changed = await call<BaseOut>(ctx, 'PATCH', `/v3/app/knowledge/${base}`, { name: 'Help', sources: [{ worksheetId: sheet.id, fieldIds: ['title'] }] });
      expect(changed.error_msg).toBe('');
      expect(changed.data).toMatchObject({ name: 'Help', description: 'Articles', status: 'indexing', chunkCount: 0, sources: [{ fieldIds: [sheet.field.title], status: 'queued' }] });
      await ctx.app.jobs.runUntilIdle();
      const hits = await search(ctx, { knowledgeId: base, query: 'espresso machine', topK: 10 });
      expect(hits.every((h) => !h.content.includes('espresso'))).toBe(true);
      expect((await search(ctx, { knowledgeId: base, query: 'coffee', mode: 'keyword' }))[0]?.content).toBe('Title: Office coffee');
      // The same list again changes nothing: no job, no re-indexing.
      const same = await call<BaseOut>(ctx, 'PATCH', `/v3/app/knowledge/${base}`, { sources: [{ worksheetId: sheet.id, fieldIds: ['title'] }] });
      expect(same.data).toMatchObject({ status: 'ready', chunkCount: 6 });
      expect(await ctx.app.jobs.runUntilIdle()).toBe(0);
      // Back to title and body for the tests after this one.
      await call(ctx, 'PATCH', `/v3/app/knowledge/${base}`, { sources: [{ worksheetId: sheet.id, fieldIds: ['title', 'body'] }] });
      await ctx.app.jobs.runUntilIdle();
      const doomed = await call<{ id: string }>(ctx, 'POST', '/v3/app/knowledge', { name: 'Doomed', sources: [{ worksheetId: sheet.id, fieldIds: ['title'] }] });
      await ctx.app.jobs.runUntilIdle();
      expect((await call<BaseOut>(ctx, 'GET', `/v3/app/knowledge/${doomed.data.id}`)).data.chunkCount).toBe(6);
      expect((await call(ctx, 'DELETE', `/v3/app/knowledge/${doomed.data.id}`)).error_code).toBe(1);
      expect((await call(ctx, 'GET', `/v3/app/knowledge/${doomed.data.id}`)).error_code).toBe(10007);
      expect((await call(ctx, 'POST', '/v3/app/knowledge/search', { knowledgeId: doomed.data.id, query: 'refund' })).error_code).toBe(10007);
      const left = await ctx.database.db.selectFrom('knowledge_passages').select((eb) => eb.fn.countAll<number>().as('n')).where('knowledge_id', '=', doomed.data.id).executeTakeFirst();
      expect(Number(left?.n)).toBe(0);
    });

    it('keeps bases to their application, and deletes them with it', async () => {
      const other = await createAppWithKey(ctx.database.db, 'Other', Date.now());
      const headers = { 'SVC-Appkey': other.appKey, 'SVC-Sign': other.sign };
      expect((await call(ctx, 'GET', `/v3/app/knowledge/${base}`, undefined, headers)).error_code).toBe(10007);
      expect((await call(ctx, 'POST', '/v3/app/knowledge/search', { knowledgeId: base, query: 'refund' }, headers)).error_code).toBe(10007);
      expect((await call<{ total: number }>(ctx, 'POST', '/v3/app/knowledge/list', {}, headers)).data.total).toBe(0);
      // Their own base over their own worksheet, gone with their application.
      const theirs = await call<{ worksheetId: string }>(ctx, 'POST', '/v3/app/worksheets', { name: 'Notes', fields: [{ name: 'Text', alias: 'text', type: '2', isTitle: true }] }, headers);
      expect((await call(ctx, 'POST', `/v3/app/worksheets/${theirs.data.worksheetId}/rows`, { fields: [{ id: 'text', value: 'their refund note' }] }, headers)).error_code).toBe(1);
      const made = await call<{ id: string }>(ctx, 'POST', '/v3/app/knowledge', { name: 'Theirs', sources: [{ worksheetId: theirs.data.worksheetId, fieldIds: ['text'] }] }, headers);
      await ctx.app.jobs.runUntilIdle();
      expect((await call<{ results: Hit[] }>(ctx, 'POST', '/v3/app/knowledge/search', { knowledgeId: made.data.id, query: 'refund' }, headers)).data.results).toHaveLength(1);
      expect((await call(ctx, 'DELETE', '/v3/app', undefined, headers)).error_code).toBe(1);
      const left = await ctx.database.db.selectFrom('knowledge_bases').select('id').where('id', '=', made.data.id).execute();
      const passages = await ctx.database.db.selectFrom('knowledge_passages').select('seq').where('knowledge_id', '=', made.data.id).execute();
      expect([left, passages]).toEqual([[], []]);
    });

    it('is in the OpenAPI document', async () => {
      const paths = Object.keys((await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths as object);
      expect(paths.filter((p) => p.startsWith('/v3/app/knowledge')).sort()).toEqual([
        '/v3/app/knowledge',
        '/v3/app/knowledge/list',
        '/v3/app/knowledge/search',
        '/v3/app/knowledge/{knowledge_id}',
        '/v3/app/knowledge/{knowledge_id}/documents',
        '/v3/app/knowledge/{knowledge_id}/documents/{document_id}',
        '/v3/app/knowledge/{knowledge_id}/documents/{document_id}/retry',
      ]);
    });

    it('never shows a role the passages of records out of its reach or built from a field hidden from it', async () => {
      const limited = await memberWithToken(ctx, 'limited');
      const views = await call<{ views: Array<{ id: string }> }>(ctx, 'POST', `/v3/app/worksheets/${sheet.id}/views/batch`, {
        views: [{ name: 'Public', viewType: 'table', filter: { type: 'condition', field: 'level', operator: 'eq', value: 'public' } }],
      });
      await giveRole(ctx, 'Public readers', {
        permissionScope: 0,
        worksheetPermissions: [{ id: sheet.id, recordPermissionInViews: [{ viewId: views.data.views[0]!.id, read: true, edit: false, delete: false }], recordDataScope: { read: 100, edit: 0, delete: 0 }, fieldPermissions: [{ id: 'secret', read: false }] }],
      }, [limited.id]);
      const withSecret = await call<{ id: string }>(ctx, 'POST', '/v3/app/knowledge', { name: 'With secrets', sources: [{ worksheetId: sheet.id, fieldIds: ['title', 'body', 'secret'] }] });
      await ctx.app.jobs.runUntilIdle();
      const everything = 'refund password shipping coffee invoices security revenue contract rebate breach';
      for (const mode of ['hybrid', 'vector', 'keyword']) {
        const admin = await search(ctx, { knowledgeIds: [base, withSecret.data.id], query: everything, mode, topK: 100 });
        expect(admin.length, mode).toBe(12);
        const seen = await search(ctx, { knowledgeIds: [base, withSecret.data.id], query: everything, mode, topK: 100 }, limited.headers);
        // Public records only; from the base with the secret field, only records whose secret is empty (their passages hold no secret).
        expect(seen.map((h) => `${h.source.knowledgeId === base ? 'base' : 'secret'}:${h.source.title}`).sort(), mode).toEqual(
          ['base:Invoice questions', 'base:Password reset', 'base:Refund policy', 'secret:Invoice questions', 'secret:Password reset'],
        );
        expect(seen.every((h) => !/revenue|contract|rebate|breach/.test(h.content))).toBe(true);
      }
      // The secret words themselves find nothing for the limited role, and the administrator's passages for the key.
      expect(await search(ctx, { knowledgeId: withSecret.data.id, query: 'revenue breach rebate', mode: 'keyword' }, limited.headers)).toEqual([]);
      expect(titles(await search(ctx, { knowledgeId: withSecret.data.id, query: 'revenue', mode: 'keyword' }))).toEqual(['Refund policy']);
      // A filter naming the hidden field is refused (430014), as on lists.
      const hiddenFilter = await call(ctx, 'POST', '/v3/app/knowledge/search', { knowledgeId: base, query: 'x', filter: { worksheetId: sheet.id, tree: { type: 'condition', field: 'secret', operator: 'eq', value: 'x' } } }, limited.headers);
      expect(hiddenFilter.error_code).toBe(430014);
      // Members may search but not make, change or delete bases.
      expect((await call(ctx, 'POST', '/v3/app/knowledge', { name: 'Mine' }, limited.headers)).error_code).toBe(10005);
      expect((await call(ctx, 'PATCH', `/v3/app/knowledge/${base}`, { name: 'Mine' }, limited.headers)).error_code).toBe(10005);
      expect((await call(ctx, 'DELETE', `/v3/app/knowledge/${base}`, undefined, limited.headers)).error_code).toBe(10005);
      expect((await call(ctx, 'POST', '/v3/app/knowledge/list', {}, limited.headers)).error_code).toBe(1);
    });
  },
  { WORKERS: '0' },
  { sweeps: false },
);
