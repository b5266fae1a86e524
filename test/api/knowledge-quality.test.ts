import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, type Sheet } from '../helpers/record-fixtures.js';

/**
 * Retrieval quality on a small labelled set kept in the repo (test/fixtures/knowledge/help-centre.json):
 * recall@5 of each search mode (the share of expected passages among the first five, averaged over
 * the questions), printed, and hybrid search no worse than either of the others.
 */

interface Labelled {
  passages: Array<{ title: string; body: string }>;
  questions: Array<{ question: string; expected: string[] }>;
}

const SET = JSON.parse(readFileSync(new URL('../fixtures/knowledge/help-centre.json', import.meta.url), 'utf8')) as Labelled;
const MODES = ['keyword', 'vector', 'hybrid'] as const;

describeApi(
  'knowledge bases: retrieval quality',
  (ctx) => {
    let sheet: Sheet;
    let base: string;

    beforeAll(async () => {
      sheet = await makeSheet(ctx, 'Help articles', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true },
        { name: 'Body', alias: 'body', type: '2' },
      ]);
      const rows = SET.passages.map((p) => ({ fields: [{ id: 'title', value: p.title }, { id: 'body', value: p.body }] }));
      expect((await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, { rows })).body.error_msg).toBe('');
      const created = await ctx.call<{ id: string }>('POST', '/v3/app/knowledge', { name: 'Help', sources: [{ worksheetId: sheet.id, fieldIds: ['title', 'body'] }] });
      base = created.body.data.id;
      await ctx.app.jobs.runUntilIdle();
    });

    it('reports recall@5 per mode; hybrid is not worse than keyword or vector', async () => {
      const recall: Record<string, number> = {};
      for (const mode of MODES) {
        let sum = 0;
        for (const { question, expected } of SET.questions) {
          const found = await ctx.call<{ results: Array<{ source: { title: string } }> }>('POST', '/v3/app/knowledge/search', { knowledgeId: base, query: question, mode, topK: 5 });
          expect(found.body.error_msg).toBe('');
          const titles = new Set(found.body.data.results.map((r) => r.source.title));
          sum += expected.filter((title) => titles.has(title)).length / expected.length;
        }
        recall[mode] = sum / SET.questions.length;
      }
      console.log(`recall@5 on ${ctx.engine} (${SET.passages.length} passages, ${SET.questions.length} questions): ${MODES.map((m) => `${m} ${recall[m]!.toFixed(3)}`).join(', ')}`);
      expect(recall.hybrid).toBeGreaterThanOrEqual(recall.keyword!);
      expect(recall.hybrid).toBeGreaterThanOrEqual(recall.vector!);
      // The set is small and written for the features: a floor that catches a broken mode.
      for (const mode of MODES) expect(recall[mode], mode).toBeGreaterThan(0.5);
    });
  },
  { WORKERS: '0' },
);
