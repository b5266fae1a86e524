import type { Embedder, EmbedderSpec } from '../embedder.js';
import { scaleToUnitLength } from '../unit-length.js';

/**
 * The built-in embedder: a lexical embedding that needs no model download, so that knowledge bases
 * work offline from `npm start`. Each text is reduced to features, every feature is hashed (FNV-1a)
 * into one of `DIMENSIONS` buckets with a hashed sign, and the sums are weighted and normalised:
 * - words (lower-cased, Unicode letters and digits), weight 1;
 * - adjacent word pairs, weight 0.5 (a little word order);
 * - character trigrams of each word padded with spaces, weight 0.35 (misspellings, inflections,
 *   words glued together), so that "invoices" and "invoice" land close.
 * Term frequency is damped with 1 + log(tf). It captures shared vocabulary, not meaning: synonyms do
 * not meet. Operators who want meaning configure an OpenAI-compatible endpoint (`EMBEDDINGS_URL`).
 */
export const HASHED_NGRAMS: EmbedderSpec = { kind: 'builtin', model: 'hashed-ngrams-v1', dimensions: 256 };

const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.35;
const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a over the UTF-16 code units of `text`: fast, stable across versions, well spread. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The weight of a feature by its kind, named by its first letter. */
const WEIGHTS: Record<string, number> = { w: WORD_WEIGHT, p: PAIR_WEIGHT, t: TRIGRAM_WEIGHT };

function count(counts: Map<string, number>, feature: string): void {
  counts.set(feature, (counts.get(feature) ?? 0) + 1);
}

/** How often each feature occurs in a text. Prefixes keep words, pairs and trigrams apart. */
function featuresOf(text: string): Map<string, number> {
  const words = text.toLowerCase().match(WORD) ?? [];
  const counts = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    count(counts, `w:${word}`);
    if (i > 0) count(counts, `p:${words[i - 1]} ${word}`);
    const padded = ` ${word} `;
    for (let j = 0; j + 3 <= padded.length; j++) count(counts, `t:${padded.slice(j, j + 3)}`);
  }
  return counts;
}

/** The unit vector of one text (all zeros for a text without words). */
export function hashedNgramVector(text: string, dimensions = HASHED_NGRAMS.dimensions): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const [feature, occurrences] of featuresOf(text)) {
    const hash = fnv1a(feature);
    const sign = hash & 0x80000000 ? -1 : 1;
    // Damped: a word said ten times matters more than once, but not ten times more.
    vector[hash % dimensions]! += sign * WEIGHTS[feature[0]!]! * (1 + Math.log(occurrences));
  }
  return scaleToUnitLength(vector);
}

/**
 * The built-in embedder; synchronous work, offered behind the async interface.
 * @example const v = (await hashedNgramEmbedder().embed(['hello world']))[0]
 */
export function hashedNgramEmbedder(): Embedder {
  return {
    spec: HASHED_NGRAMS,
    maxBatch: 1024,
    embed: async (texts) => texts.map((text) => hashedNgramVector(text)),
  };
}
