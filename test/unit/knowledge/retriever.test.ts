import { describe, expect, it } from 'vitest';
import type { Executor } from '../../../src/db/connection.js';
import type { StoredPassage } from '../../../src/knowledge/passage.js';
import type { PassageStore } from '../../../src/knowledge/passage-store.js';
import type { RetrievalRequest } from '../../../src/knowledge/retrieval.js';
import { MAX_FETCH, rankPassages } from '../../../src/knowledge/retriever.js';

/** Passage number i (seq i), a record passage of row `r<i>`. */
function passage(i: number): StoredPassage {
  return { seq: i, content: `passage ${i}`, source: { type: 'record', knowledgeId: 'kb', sourceId: 's', worksheetId: 'w', rowId: `r${i}`, fieldIds: ['f'], title: `P${i}`, chunkIndex: 0 } };
}

/** A store whose rankings are fixed lists of seqs (scores falling by 0.01 per rank from 0.99); it records the depths asked for. */
function fakeStore(keyword: number[], vector: number[], asked: number[]): PassageStore {
  const ranked = (seqs: number[], limit: number) => seqs.slice(0, limit).map((seq, rank) => ({ passage: passage(seq), score: 0.99 - rank * 0.01 }));
  return {
    replace: async () => undefined,
    add: async () => undefined,
    removeAll: async () => undefined,
    countByKnowledgeBase: async () => new Map(),
    keywordCandidates: async (_db, _ids, _query, limit) => {
      asked.push(limit);
      return ranked(keyword, limit);
    },
    vectorCandidates: async (_db, _ids, _vector, limit) => ranked(vector, limit),
    staging: { unstaged: async () => [], stage: async () => 0, count: async () => 0, promote: async () => undefined, discard: async () => undefined },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function plan(store: PassageStore, readable: (seq: number) => boolean, checked: number[] = []) {
  return {
    db: {} as Executor,
    store,
    knowledgeIds: ['kb'],
    vectors: [{ knowledgeIds: ['kb'], vector: new Float32Array([1]) }],
    readable: async (passages: readonly StoredPassage[]) => {
      checked.push(...passages.map((p) => p.seq));
      return new Set(passages.map((p) => p.seq).filter(readable));
    },
  };
}

const request = (over: Partial<RetrievalRequest>): RetrievalRequest => ({ knowledgeIds: ['kb'], query: 'q', topK: 5, mode: 'keyword', ...over });

describe('ranking in rounds', () => {
  it('fetches deeper while too few candidates are readable, and asks about each passage once', async () => {
    const asked: number[] = [];
    const checked: number[] = [];
    // 1,000 passages; only every hundredth is readable: the first round (20) finds one, the next (80) one more…
    const found = await rankPassages(plan(fakeStore(range(1, 1000), [], asked), (seq) => seq % 100 === 0, checked), request({ topK: 5 }));
    expect(found.map((f) => f.source.title)).toEqual(['P100', 'P200', 'P300', 'P400', 'P500']);
    expect(asked).toEqual([20, 80, 320, 1280]);
    expect(new Set(checked).size).toBe(checked.length);
  });

  it('stops when the rankings hold no more, and at the deepest fetch', async () => {
    const shallow: number[] = [];
    expect(await rankPassages(plan(fakeStore(range(1, 30), [], shallow), () => false), request({ topK: 5 }))).toEqual([]);
    expect(shallow).toEqual([20, 80]);
    const deep: number[] = [];
    expect(await rankPassages(plan(fakeStore(range(1, 5000), [], deep), () => false), request({ topK: 100 }))).toEqual([]);
    expect(deep).toEqual([400, 1600, MAX_FETCH]);
  });

  it('leaves out passages under the threshold, and does not fetch deeper past it in a single ranking', async () => {
    const asked: number[] = [];
    const found = await rankPassages(plan(fakeStore(range(1, 1000), [], asked), () => true), request({ topK: 10, scoreThreshold: 0.95 }));
    expect(found.map((f) => f.score)).toEqual([0.99, 0.98, 0.97, 0.96, 0.95].map((s) => expect.closeTo(s, 10)));
    expect(asked).toEqual([40]);
  });

  it('fuses the two rankings in hybrid mode, scaled so that first in both scores 1', async () => {
    const found = await rankPassages(plan(fakeStore([1, 2, 3], [3, 1, 4], []), () => true), request({ mode: 'hybrid', topK: 4 }));
    expect(found.map((f) => f.source.title)).toEqual(['P1', 'P3', 'P2', 'P4']);
    expect(found[0]!.score).toBeCloseTo((1 / 61 + 1 / 62) / (2 / 61), 12);
    const alone = await rankPassages(plan(fakeStore([7], [7], []), () => true), request({ mode: 'hybrid' }));
    expect(alone.map((f) => f.score)).toEqual([1]);
  });
});
