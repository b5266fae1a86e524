/**
 * Reciprocal rank fusion: how hybrid search merges the full-text ranking and the vector ranking,
 * which have scores on different scales. Each list gives an item 1 / (k + rank) (rank from 1); an
 * item's fused score is the sum over the lists it is in. k = 60 is the constant of Cormack, Clarke
 * and Büttcher (2009), which damps the difference between the first few ranks.
 */
export const RRF_K = 60;

/**
 * The items of several rankings, fused, best first; ties keep the order of first appearance.
 * @example fuseRankings([['a', 'b'], ['b', 'c']]) // [{ key: 'b', score: 1/62 + 1/61 }, { key: 'a', … }, { key: 'c', … }]
 */
export function fuseRankings<K>(rankings: ReadonlyArray<readonly K[]>, k = RRF_K): Array<{ key: K; score: number }> {
  const scores = new Map<K, number>();
  for (const ranking of rankings) {
    ranking.forEach((key, index) => scores.set(key, (scores.get(key) ?? 0) + 1 / (k + index + 1)));
  }
  return [...scores].map(([key, score]) => ({ key, score })).sort((a, b) => b.score - a.score);
}
