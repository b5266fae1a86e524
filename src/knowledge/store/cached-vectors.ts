import type { Executor } from '../../db/connection.js';
import type { PassageSearch } from '../../db/dialect/sql-dialect.js';
import { sql } from 'kysely';
import { chunks, type Candidate, type IndexedPassage, type VectorIndex } from './indexes.js';
import { countPassages } from './passage-rows.js';
import { decodedDims, encodeVector, QuantizedVectors } from './quantized-vectors.js';
import { appendVectorChanges, latestVectorChange, VECTOR_CHANGES_KEPT_MS, vectorChangesAfter, type VectorChange } from './vector-changes.js';

/**
 * A vector index in front of the store's own (sqlite-vec, or PostgreSQL's column): each process
 * keeps the vectors of the bases it searched in memory, 8 bits per dimension
 * (`QuantizedVectors`), ranks them there, and scores the few best exactly from the store. The
 * store's exact scan costs about 50 ms per 100,000 vectors on SQLite (and seconds on PostgreSQL
 * without pgvector); the in-memory ranking a few milliseconds.
 *
 * Each passage row also keeps its vector's 8-bit codes (`vector_codes`), so that a base loads with a
 * plain read of its passages, and the codes of passages stored since by a read of those rows.
 *
 * Kept current through `knowledge_vector_changes`: every write appends what it stored or removed,
 * in its own transaction, and each search first applies the changes after the last one this
 * process applied (one indexed read, empty when nothing changed). Writes made by any process are
 * seen by the next search anywhere, as with the store alone.
 *
 * Bounded by a memory budget (KNOWLEDGE_VECTOR_CACHE_MB): the least recently searched bases are
 * dropped first, and a search over a base that does not fit alone goes to the store's scan.
 */

export interface VectorCacheOptions {
  /** The most memory the in-memory vectors may take, in bytes; 0 turns the cache off. */
  budgetBytes: number;
  /** Epoch milliseconds (tests pass a fixed clock). */
  clock?: () => number;
}

/** Past this many changes behind, a process drops its vectors and reloads them as needed. */
const CATCH_UP_LIMIT = 20_000;
const CHANGES_PAGE = 5_000;
/** Passages read per statement when a base is loaded. */
const LOAD_PAGE = 5_000;

/** The exact scores of the first ranking's best: `limit` and a margin for the 8-bit error. */
function rescored(limit: number): number {
  return limit + Math.max(16, Math.ceil(limit / 4));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

interface Entry {
  vectors: QuantizedVectors;
  lastUsed: number;
}

function entryKey(knowledgeId: string, dims: number): string {
  return `${knowledgeId}\u0000${dims}`;
}

type CodesRow = { seq: number | string; vector_codes: Uint8Array };

/** The stored codes of these passages (those that still exist and have a vector). */
async function codesOf(db: Executor, seqs: readonly number[]): Promise<CodesRow[]> {
  const found: CodesRow[] = [];
  for (const part of chunks(seqs)) {
    const rows = await sql<CodesRow>`SELECT seq, vector_codes FROM knowledge_passages WHERE seq IN (${sql.join(part)}) AND vector_codes IS NOT NULL`.execute(db);
    found.push(...rows.rows);
  }
  return found;
}

/** Loads a base's vectors of `dims` dimensions into `vectors`, in pages by `seq`. */
async function loadBase(db: Executor, knowledgeId: string, vectors: QuantizedVectors): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await sql<CodesRow>`
      SELECT seq, vector_codes FROM knowledge_passages WHERE knowledge_id = ${knowledgeId} AND seq > ${after} AND vector_codes IS NOT NULL
      ORDER BY seq LIMIT ${LOAD_PAGE}`.execute(db);
    for (const row of rows.rows) if (decodedDims(row.vector_codes) === vectors.dims) vectors.setCodes(Number(row.seq), row.vector_codes);
    if (rows.rows.length < LOAD_PAGE) return;
    after = Number(rows.rows[rows.rows.length - 1]!.seq);
  }
}

/**
 * Wraps a store's vector index with the in-memory one (the same `VectorIndex` contract).
 * @example const vectors = cachedVectors(vec0Vectors(search), search, { budgetBytes: 64 << 20 })
 */
export function cachedVectors(store: VectorIndex, search: PassageSearch, options: VectorCacheOptions): VectorIndex {
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, Entry>();
  let applied = 0;
  let caughtUpAt = Number.NEGATIVE_INFINITY;
  let turn: Promise<unknown> = Promise.resolve();

  /** Runs `work` after every earlier one: changes are applied once each, in order. */
  function serially<T>(work: () => Promise<T>): Promise<T> {
    const result = turn.then(work, work);
    turn = result.catch(() => undefined);
    return result;
  }

  function usedBytes(): number {
    let sum = 0;
    for (const entry of entries.values()) sum += entry.vectors.bytes;
    return sum;
  }

  async function restart(db: Executor): Promise<void> {
    entries.clear();
    applied = await latestVectorChange(db);
  }

  async function apply(db: Executor, changes: readonly VectorChange[]): Promise<void> {
    const added = new Map<string, Set<number>>();
    for (const change of changes) {
      if (change.knowledgeId === null) {
        for (const entry of entries.values()) entry.vectors.delete(change.seq);
        // A removal also cancels an addition of the same seq earlier in this batch (SQLite reuses a largest rowid).
        for (const seqs of added.values()) seqs.delete(change.seq);
      } else {
        const key = entryKey(change.knowledgeId, change.dims!);
        if (entries.has(key)) added.set(key, (added.get(key) ?? new Set()).add(change.seq));
      }
    }
    for (const [key, seqs] of added) {
      const entry = entries.get(key)!;
      for (const row of await codesOf(db, [...seqs])) if (decodedDims(row.vector_codes) === entry.vectors.dims) entry.vectors.setCodes(Number(row.seq), row.vector_codes);
    }
  }

  /** Applies every change made since this process last looked (or starts over when too far behind). */
  async function catchUp(db: Executor): Promise<void> {
    if (clock() - caughtUpAt > VECTOR_CHANGES_KEPT_MS / 2) {
      await restart(db);
    } else {
      for (let total = 0; ; ) {
        const changes = await vectorChangesAfter(db, applied, CHANGES_PAGE);
        if (changes.length === 0) break;
        total += changes.length;
        if (total > CATCH_UP_LIMIT) {
          await restart(db);
          break;
        }
        await apply(db, changes);
        applied = changes[changes.length - 1]!.id;
        if (changes.length < CHANGES_PAGE) break;
      }
    }
    caughtUpAt = clock();
  }

  /** The in-memory vectors of these bases, loaded as needed; null when they do not fit the budget. */
  async function vectorsFor(db: Executor, knowledgeIds: readonly string[], dims: number): Promise<QuantizedVectors[] | null> {
    await catchUp(db);
    const missing = knowledgeIds.filter((id) => !entries.has(entryKey(id, dims)));
    const counts = missing.length > 0 ? await countPassages(db, missing) : new Map<string, number>();
    let needed = 0;
    for (const id of missing) needed += QuantizedVectors.bytesFor(dims, counts.get(id) ?? 0);
    let held = 0;
    for (const id of knowledgeIds) held += entries.get(entryKey(id, dims))?.vectors.bytes ?? 0;
    if (held + needed > options.budgetBytes) return null;
    // The least recently searched bases make room, never those of this search.
    const wanted = new Set(knowledgeIds.map((id) => entryKey(id, dims)));
    const byAge = [...entries].filter(([key]) => !wanted.has(key)).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (let used = usedBytes(); used + needed > options.budgetBytes && byAge.length > 0; ) {
      const [key, entry] = byAge.shift()!;
      entries.delete(key);
      used -= entry.vectors.bytes;
    }
    for (const id of missing) {
      const vectors = new QuantizedVectors(dims, Math.ceil((counts.get(id) ?? 0) * 1.05));
      await loadBase(db, id, vectors);
      entries.set(entryKey(id, dims), { vectors, lastUsed: 0 });
    }
    const now = clock();
    return knowledgeIds.map((id) => {
      const entry = entries.get(entryKey(id, dims))!;
      entry.lastUsed = now;
      return entry.vectors;
    });
  }

  return {
    rowColumns: [...store.rowColumns, { name: 'vector_codes', value: (passage) => (passage.vector ? sql`${encodeVector(passage.vector)}` : sql`NULL`) }],
    async add(trx, passages: readonly IndexedPassage[]) {
      await store.add(trx, passages);
      const stored = passages.flatMap((p) => (p.vector ? [{ seq: p.seq, knowledgeId: p.knowledgeId, dims: p.vector.length }] : []));
      await appendVectorChanges(trx, search, stored, [], clock());
    },
    async remove(trx, seqs: readonly number[]) {
      await store.remove(trx, seqs);
      await appendVectorChanges(trx, search, [], seqs, clock());
    },
    async search(db, knowledgeIds, vector, limit): Promise<Candidate[]> {
      if (options.budgetBytes <= 0 || knowledgeIds.length === 0) return store.search(db, knowledgeIds, vector, limit);
      return serially(async () => {
        const held = await vectorsFor(db, knowledgeIds, vector.length);
        if (!held) return store.search(db, knowledgeIds, vector, limit);
        const first = held
          .flatMap((vectors) => vectors.nearest(vector, rescored(limit)))
          .sort((a, b) => b.score - a.score)
          .slice(0, rescored(limit));
        const exact = await store.vectorsOf(
          db,
          vector.length,
          first.map((hit) => hit.seq),
        );
        return first
          .flatMap((hit) => {
            const stored = exact.get(hit.seq);
            return stored ? [{ seq: hit.seq, score: dot(stored, vector) }] : [];
          })
          .sort((a, b) => b.score - a.score || a.seq - b.seq)
          .slice(0, limit);
      });
    },
    vectorsOf: (db, dims, seqs) => store.vectorsOf(db, dims, seqs),
    stagedValue: (vector) => store.stagedValue(vector),
    // A re-embedding's switch: the old vectors removed, the new ones stored, both in the change log.
    async promote(trx, knowledgeId, seqs) {
      const stored = await store.promote(trx, knowledgeId, seqs);
      // The passages' codes follow their vectors (none where no vector was staged: no words).
      await sql`
        UPDATE knowledge_passages SET vector_codes = (SELECT s.vector_codes FROM knowledge_staged_vectors s WHERE s.seq = knowledge_passages.seq)
        WHERE knowledge_id = ${knowledgeId}`.execute(trx);
      await appendVectorChanges(
        trx,
        search,
        stored.map((s) => ({ ...s, knowledgeId })),
        seqs,
        clock(),
      );
      return stored;
    },
  };
}
