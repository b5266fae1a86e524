import { loadTarget, readMetrics, type BenchContext } from '../context.js';
import { knowledgeRecord, questionAbout } from '../knowledge-text.js';
import { runLoad, type LoadOutcome } from '../load.js';
import { cpuCost, type WorkloadResult } from '../report.js';

/**
 * W14 and W15: knowledge bases (issue 12) over a worksheet of their own, "Knowledge" (title, body of
 * about 60 words, topic; `knowledge-text.ts`), one passage per record, the built-in embedder.
 * W14 times the full indexing of 20,000 records: from `POST /v3/app/knowledge` until the base reads
 * ready. W15 indexes 100,000 records into a second base, then searches it: top 5, one connection,
 * questions drawn from the records (a different one per request), hybrid and then keyword only.
 */

const W14_RECORDS = 20_000;
const W15_RECORDS = 100_000;
const BATCH = 1_000;
const QUESTIONS = 500;
const CONNECTIONS = 1;

interface BaseOut {
  status: string;
  chunkCount: number;
  sources: Array<{ progress: number; total: number; status: string }>;
}

/** The bench's knowledge worksheet, made by W14 and grown by W15. */
let knowledgeSheet: { id: string; records: number } | undefined;

async function addRecords(ctx: BenchContext, sheetId: string, from: number, to: number): Promise<void> {
  for (let start = from; start <= to; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, to - start + 1) }, (_, i) => {
      const record = knowledgeRecord(start + i);
      return { fields: [{ id: 'title', value: record.title }, { id: 'body', value: record.body }, { id: 'topic', value: record.topic }] };
    });
    await ctx.api.call('POST', `/v3/app/worksheets/${sheetId}/rows/batch`, { rows });
  }
}

/** The sheet with `records` records (made, or grown, as needed). */
async function sheetWith(ctx: BenchContext, records: number): Promise<string> {
  if (!knowledgeSheet) {
    const fields = [
      { name: 'Title', alias: 'title', type: 'Text', isTitle: true },
      { name: 'Body', alias: 'body', type: 'Text' },
      { name: 'Topic', alias: 'topic', type: 'Text' },
    ];
    const { worksheetId } = await ctx.api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Knowledge', recordLogs: false, fields });
    knowledgeSheet = { id: worksheetId, records: 0 };
  }
  if (knowledgeSheet.records < records) await addRecords(ctx, knowledgeSheet.id, knowledgeSheet.records + 1, records);
  knowledgeSheet.records = records;
  return knowledgeSheet.id;
}

/** Creates a base over the sheet and waits until it is indexed: its id, passages and the seconds it took. */
async function indexedBase(ctx: BenchContext, sheetId: string, name: string): Promise<{ id: string; passages: number; seconds: number; serverCpuSeconds: number }> {
  const cpuBefore = await ctx.server.cpuSeconds();
  const started = performance.now();
  const { id } = await ctx.api.call<{ id: string }>('POST', '/v3/app/knowledge', { name, sources: [{ worksheetId: sheetId, fieldIds: ['title', 'body', 'topic'] }] });
  for (;;) {
    const base = await ctx.api.call<BaseOut>('GET', `/v3/app/knowledge/${id}`);
    if (base.status === 'failed') throw new Error(`indexing the knowledge base "${name}" failed: ${JSON.stringify(base)}`);
    if (base.status === 'ready') {
      const seconds = (performance.now() - started) / 1000;
      return { id, passages: base.chunkCount, seconds, serverCpuSeconds: (await ctx.server.cpuSeconds()) - cpuBefore };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** W14: the full indexing of 20,000 records with the built-in embedder. */
export async function knowledgeIngest(ctx: BenchContext): Promise<WorkloadResult> {
  const sheetId = await sheetWith(ctx, W14_RECORDS);
  const base = await indexedBase(ctx, sheetId, 'W14');
  const judged = ctx.engine === 'SQLite';
  return {
    id: 'W14',
    title: `knowledge base: index ${W14_RECORDS.toLocaleString('en-US')} records (one passage each, built-in embedder), from create until ready`,
    metrics: [
      { label: '', value: base.passages / base.seconds, unit: 'passages/s', ...(judged ? { bound: '>=' as const, target: 1000 } : {}) },
      { label: 'in', value: base.seconds, unit: 's' },
    ],
    failures: base.passages === W14_RECORDS ? 0 : 1,
    cost: cpuCost({ serverSeconds: base.serverCpuSeconds, benchSeconds: 0 }, base.passages, 'record'),
    details: { passages: base.passages, seconds: base.seconds },
  };
}

/** How many of the questions find the record they were drawn from among the first five. */
async function selfRecall(ctx: BenchContext, body: (i: number) => string, questions: number[]): Promise<number> {
  let found = 0;
  for (let i = 0; i < 50; i++) {
    const answer = await ctx.api.call<{ results: Array<{ source: { title: string } }> }>('POST', '/v3/app/knowledge/search', JSON.parse(body(i)));
    if (answer.results.some((r) => r.source.title === knowledgeRecord(questions[i]!).title)) found++;
  }
  return found / 50;
}

async function searchLoad(ctx: BenchContext, body: (i: number) => string): Promise<LoadOutcome> {
  return runLoad({
    ...loadTarget(ctx),
    method: 'POST',
    connections: CONNECTIONS,
    seconds: ctx.settings.seconds,
    request: (i) => ({ path: '/v3/app/knowledge/search', body: body(i) }),
  });
}

/** W15: hybrid (and keyword-only) search over 100,000 passages, top 5. */
export async function knowledgeSearch(ctx: BenchContext): Promise<WorkloadResult[]> {
  const sheetId = await sheetWith(ctx, W15_RECORDS);
  const base = await indexedBase(ctx, sheetId, 'W15');
  const drawn = Array.from({ length: QUESTIONS }, (_, i) => 1 + ((i * 7_919) % W15_RECORDS));
  const bodies = (mode: string) => drawn.map((n, i) => JSON.stringify({ knowledgeId: base.id, query: questionAbout(n, i), topK: 5, mode }));
  const hybridBodies = bodies('hybrid');
  const keywordBodies = bodies('keyword');
  const recall = { hybrid: await selfRecall(ctx, (i) => hybridBodies[i]!, drawn), keyword: await selfRecall(ctx, (i) => keywordBodies[i]!, drawn) };
  const judged = ctx.engine === 'SQLite';
  const hybrid = await searchLoad(ctx, (i) => hybridBodies[i % QUESTIONS]!);
  const keyword = await searchLoad(ctx, (i) => keywordBodies[i % QUESTIONS]!);
  const scale = `${base.passages.toLocaleString('en-US')} passages, indexed at ${Math.round(base.passages / base.seconds).toLocaleString('en-US')} passages/s; ${CONNECTIONS} conn, ${ctx.settings.seconds} s`;
  return [
    {
      id: 'W15',
      title: `knowledge search, hybrid, top 5 (${scale})`,
      metrics: readMetrics(ctx, hybrid, judged ? { p50: 50, p99: 150 } : {}),
      failures: hybrid.non2xx + hybrid.errors + (base.passages === W15_RECORDS ? 0 : 1),
      cost: cpuCost(hybrid.cpu, hybrid.ok + hybrid.non2xx, 'request'),
      note: `the record a question was drawn from is in the first five for ${Math.round(recall.hybrid * 100)} % of 50 questions (keyword only: ${Math.round(recall.keyword * 100)} %)`,
      details: { ...hybrid, passages: base.passages, indexSeconds: base.seconds, recall },
    },
    {
      id: 'W15k',
      title: `knowledge search, keyword only, top 5 (${scale})`,
      metrics: readMetrics(ctx, keyword, judged ? { p50: 15 } : {}),
      failures: keyword.non2xx + keyword.errors,
      cost: cpuCost(keyword.cpu, keyword.ok + keyword.non2xx, 'request'),
      details: { ...keyword },
    },
  ];
}
