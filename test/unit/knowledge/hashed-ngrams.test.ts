import { describe, expect, it } from 'vitest';
import { HASHED_NGRAMS, hashedNgramEmbedder, hashedNgramVector } from '../../../src/knowledge/embedders/hashed-ngrams.js';

/** The built-in embedder: unit vectors of the declared size, lexical closeness, stable output. */

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

describe('hashed n-gram embedder', () => {
  it('returns unit vectors of its declared size', async () => {
    const [v] = await hashedNgramEmbedder().embed(['Refunds are paid within fourteen days']);
    expect(v).toHaveLength(HASHED_NGRAMS.dimensions);
    expect(cosine(v!, v!)).toBeCloseTo(1, 5);
  });

  it('returns a zero vector for a text without words', () => {
    expect([...hashedNgramVector(' — !? ')].every((x) => x === 0)).toBe(true);
  });

  it('places texts that share words and word forms closer than unrelated texts', () => {
    const question = hashedNgramVector('how are invoices refunded');
    const related = hashedNgramVector('Refunds of an invoice are paid within 14 days');
    const unrelated = hashedNgramVector('The warehouse opens at seven in the morning');
    expect(cosine(question, related)).toBeGreaterThan(cosine(question, unrelated) + 0.15);
  });

  it('ignores case and is the same on every call (passages and queries embed alike)', () => {
    expect([...hashedNgramVector('Quarterly Revenue')]).toEqual([...hashedNgramVector('quarterly revenue')]);
  });

  it('matches words of any script', () => {
    const a = hashedNgramVector('Rechnung bezahlt');
    const b = hashedNgramVector('die Rechnung wurde bezahlt');
    expect(cosine(a, b)).toBeGreaterThan(0.5);
  });
});
