import { describe, expect, it } from 'vitest';
import { encodeVector, QuantizedVectors } from '../../../src/knowledge/store/quantized-vectors.js';

/** The in-memory 8-bit first ranking: same best passages as an exact scan, removals, growth. */

/** A deterministic pseudo-random unit vector, sparse like the built-in embedder's (a third of dimensions set). */
function unitVector(seed: number, dims: number): Float32Array {
  let state = seed * 2654435761 + 1;
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const v = new Float32Array(dims);
  for (let d = 0; d < dims; d++) if (next() < 0.33) v[d] = next() - 0.3;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function exactBest(vectors: Map<number, Float32Array>, query: Float32Array, n: number): number[] {
  const dot = (a: Float32Array) => a.reduce((sum, x, i) => sum + x * query[i]!, 0);
  return [...vectors].map(([seq, v]) => ({ seq, score: dot(v) })).sort((a, b) => b.score - a.score).slice(0, n).map((s) => s.seq);
}

describe('QuantizedVectors', () => {
  const dims = 64;
  const stored = new Map<number, Float32Array>();
  for (let seq = 1; seq <= 3000; seq++) stored.set(seq, unitVector(seq, dims));

  it('ranks the exact best five among its first fifteen, with scores within 0.02 of the exact ones', () => {
    const index = new QuantizedVectors(dims, 16);
    for (const [seq, v] of stored) index.setCodes(seq, encodeVector(v));
    expect(index.size).toBe(3000);
    for (let q = 0; q < 20; q++) {
      const query = unitVector(100_000 + q, dims);
      const first = index.nearest(query, 15);
      expect(first).toHaveLength(15);
      const firstSeqs = first.map((hit) => hit.seq);
      for (const seq of exactBest(stored, query, 5)) expect(firstSeqs).toContain(seq);
      for (const hit of first) {
        const exact = stored.get(hit.seq)!.reduce((sum, x, i) => sum + x * query[i]!, 0);
        expect(Math.abs(hit.score - exact)).toBeLessThan(0.02);
      }
    }
  });

  it('never returns a removed vector, and a seq stored again has its new vector', () => {
    const index = new QuantizedVectors(dims, 16);
    for (const [seq, v] of stored) index.setCodes(seq, encodeVector(v));
    const query = unitVector(7, dims);
    const [top] = index.nearest(query, 1);
    expect(top!.seq).toBe(7);
    index.delete(7);
    expect(index.has(7)).toBe(false);
    expect(index.nearest(query, 50).map((hit) => hit.seq)).not.toContain(7);
    index.setCodes(7, encodeVector(unitVector(8, dims)));
    expect(index.nearest(unitVector(8, dims), 2).map((hit) => hit.seq).sort()).toEqual([7, 8]);
  });

  it('drops removed slots when it fills up instead of growing, and keeps every live vector', () => {
    const index = new QuantizedVectors(dims, 16);
    for (let round = 0; round < 50; round++) {
      for (let seq = 1; seq <= 10; seq++) index.setCodes(seq, encodeVector(unitVector(seq + round, dims)));
    }
    expect(index.size).toBe(10);
    // 16 slots held 10 live vectors: more than half, so it grew once, to 32, and compacted from then on.
    expect(index.bytes).toBeGreaterThan(QuantizedVectors.bytesFor(dims, 16));
    expect(index.bytes).toBeLessThanOrEqual(QuantizedVectors.bytesFor(dims, 32));
    expect(index.nearest(unitVector(1 + 49, dims), 1)[0]!.seq).toBe(1);
  });

  it('answers fewer than asked when it holds fewer, best first', () => {
    const index = new QuantizedVectors(4);
    index.setCodes(1, encodeVector(new Float32Array([1, 0, 0, 0])));
    index.setCodes(2, encodeVector(new Float32Array([0.6, 0.8, 0, 0])));
    const hits = index.nearest(new Float32Array([1, 0, 0, 0]), 5);
    expect(hits.map((hit) => hit.seq)).toEqual([1, 2]);
    expect(hits[0]!.score).toBeCloseTo(1, 2);
    expect(hits[1]!.score).toBeCloseTo(0.6, 2);
  });
});
