import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { inTransaction } from '../../src/db/transaction.js';
import { hashedNgramEmbedder } from '../../src/knowledge/embedders/hashed-ngrams.js';
import type { PassageInput } from '../../src/knowledge/passage.js';
import { passageStore, setVectorCacheBudget } from '../../src/knowledge/store/index.js';
import { sweepVectorChanges } from '../../src/knowledge/store/vector-changes.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';

/**
 * The in-memory vector index in front of the passage store, on real engines: it ranks as the
 * store's exact scan does, and a search in one process sees what another process wrote or removed
 * (two connections to one database stand for two processes, each with its own index).
 */

const topics = ['refund policy for damaged parcels', 'shipping times to islands', 'password reset by email', 'invoice address change', 'gift card balance', 'warehouse opening hours', 'return label printing', 'loyalty points expiry'];

function passages(knowledgeId: string, documentId: string, count: number, from = 0): Promise<PassageInput[]> {
  const embedder = hashedNgramEmbedder();
  const texts = Array.from({ length: count }, (_, i) => `${topics[(from + i) % topics.length]} case ${from + i} ${['north', 'south', 'east', 'west'][(from + i) % 4]}`);
  return embedder.embed(texts).then((vectors) =>
    texts.map((content, i) => ({ source: { type: 'document', knowledgeId, sourceId: documentId, documentId, title: `Doc ${documentId}`, chunkIndex: from + i }, content, vector: vectors[i]! })),
  );
}

/** Candidates as `seq@score`, ties (equal to 5 decimals) put in `seq` order: the two indexes break ties differently. */
function ranking(candidates: ReadonlyArray<{ passage: { seq: number }; score: number }>): string[] {
  return candidates
    .map((c) => ({ seq: c.passage.seq, score: c.score.toFixed(5) }))
    .sort((a, b) => Number(b.score) - Number(a.score) || a.seq - b.seq)
    .map((c) => `${c.seq}@${c.score}`);
}

async function query(text: string): Promise<Float32Array> {
  return (await hashedNgramEmbedder().embed([text]))[0]!;
}

describeEachEngine('in-memory vector index', (engine) => {
  let testDb: TestDatabase;
  let first: Database;
  let second: Database;
  let exact: Database;

  beforeAll(async () => {
    testDb = await engine.create();
    first = openDatabase(testDb.url);
    await migrateToLatest(first as never);
    second = openDatabase(testDb.url);
    exact = openDatabase(testDb.url);
    // A third "process" with the in-memory index off: the store's own exact scan, to compare with.
    setVectorCacheBudget(exact.dialect, 0);
    await inTransaction(first.db, (trx) => passageStore(first.dialect).add(trx, []));
    const input = await passages('kb1', 'd1', 400);
    await inTransaction(first.db, (trx) => passageStore(first.dialect).add(trx, input));
    await inTransaction(first.db, async (trx) => passageStore(first.dialect).add(trx, await passages('kb2', 'd2', 50)));
  });
  afterAll(async () => {
    for (const database of [first, second, exact]) await database?.close();
    await testDb?.drop();
  });

  it('ranks the same passages, with the same scores, as the exact scan', async () => {
    for (const text of ['refund for a damaged parcel', 'how long does shipping take', 'reset my password', 'loyalty points north']) {
      const vector = await query(text);
      const cached = await passageStore(first.dialect).vectorCandidates(first.db, ['kb1'], vector, 10);
      const scanned = await passageStore(exact.dialect).vectorCandidates(exact.db, ['kb1'], vector, 10);
      expect(cached).toHaveLength(10);
      // Equal but for the order of ties at the very end of the ten (a tie there may keep either passage).
      const last = scanned[9]!.score.toFixed(5);
      const withoutLastTie = (list: string[]) => list.filter((entry) => !entry.endsWith(`@${last}`));
      expect(withoutLastTie(ranking(cached))).toEqual(withoutLastTie(ranking(scanned)));
      expect(cached.map((c) => c.score.toFixed(5))).toEqual(scanned.map((c) => c.score.toFixed(5)));
      expect(cached.every((c) => c.passage.source.knowledgeId === 'kb1')).toBe(true);
    }
  });

  it('sees passages another process adds and never returns those it removes', async () => {
    const vector = await query('zebra crossing lantern');
    // Loads kb1 into the first process's index before the other process writes.
    const before = await passageStore(first.dialect).vectorCandidates(first.db, ['kb1'], vector, 3);
    expect(before.map((c) => c.passage.content)).not.toContain('zebra crossing lantern');
    const added = (await passages('kb1', 'd9', 1)).map((p) => ({ ...p, content: 'zebra crossing lantern' }));
    added[0]!.vector = vector;
    await inTransaction(second.db, (trx) => passageStore(second.dialect).add(trx, added));
    const after = await passageStore(first.dialect).vectorCandidates(first.db, ['kb1'], vector, 3);
    expect(after[0]!.passage.content).toBe('zebra crossing lantern');
    expect(after[0]!.score).toBeCloseTo(1, 4);

    await inTransaction(second.db, (trx) => passageStore(second.dialect).removeAll(trx, 'kb1', 'd9'));
    const removed = await passageStore(first.dialect).vectorCandidates(first.db, ['kb1'], vector, 3);
    expect(removed.map((c) => c.passage.content)).not.toContain('zebra crossing lantern');
    expect(removed.map((c) => c.score.toFixed(5))).toEqual((await passageStore(exact.dialect).vectorCandidates(exact.db, ['kb1'], vector, 3)).map((c) => c.score.toFixed(5)));
  });

  it('keeps nothing a rolled-back write stored', async () => {
    const vector = await query('quartz harbour beacon');
    await passageStore(first.dialect).vectorCandidates(first.db, ['kb1'], vector, 1);
    const added = (await passages('kb1', 'd8', 1)).map((p) => ({ ...p, content: 'quartz harbour beacon', vector }));
    await expect(
      inTransaction(second.db, async (trx) => {
        await passageStore(second.dialect).add(trx, added);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const found = await passageStore(first.dialect).vectorCandidates(first.db, ['kb1'], vector, 1);
    expect(found[0]!.passage.content).not.toBe('quartz harbour beacon');
  });

  it('logs each stored and removed vector, and the sweep removes entries older than an hour', async () => {
    const count = async () => Number((await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM knowledge_vector_changes`.execute(first.db)).rows[0]!.n);
    // 400 + 50 stored, 1 stored and removed by the second test (the rolled-back one left nothing).
    expect(await count()).toBe(452);
    expect(await sweepVectorChanges(first.db, Date.now())).toEqual({ vectorChanges: 0 });
    expect(await sweepVectorChanges(first.db, Date.now() + 61 * 60_000)).toEqual({ vectorChanges: 452 });
    expect(await count()).toBe(0);
  });
});
