import { describe, expect, it } from 'vitest';
import { fuseRankings, RRF_K } from '../../../src/knowledge/fusion.js';

describe('reciprocal rank fusion', () => {
  it('ranks an item found by both lists above items found by one', () => {
    const fused = fuseRankings([['a', 'b'], ['b', 'c']]);
    expect(fused.map((f) => f.key)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
  });

  it('keeps the order of first appearance between equal scores', () => {
    expect(fuseRankings([['x'], ['y']]).map((f) => f.key)).toEqual(['x', 'y']);
  });

  it('gives nothing for no rankings', () => {
    expect(fuseRankings([])).toEqual([]);
  });
});
