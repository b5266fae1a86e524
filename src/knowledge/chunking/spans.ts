/**
 * Where a long text is cut into chunks: spans of at most `size` characters (UTF-16 code units),
 * each next one starting up to `overlap` characters before the previous one ended, so that a
 * sentence cut in two is whole in one of them. A chunk ends, in this order of preference:
 * 1. at a block boundary (between paragraphs, list, table: the `blockStarts` given), or
 * 2. at a sentence boundary, either only when it leaves the chunk at least half full;
 * 3. at whitespace (when it leaves it at least a quarter full);
 * 4. at a word boundary as Unicode's word rules find it (Intl.Segmenter: dictionary-based for
 *    Chinese, Japanese, Thai and other scripts written without spaces);
 * 5. only a "word" longer than a whole chunk (a long URL, a hash) is cut where the chunk is full.
 * The overlap starts at the earliest sentence start within the last `overlap` characters, else at
 * the earliest word start there.
 * Intl.Segmenter is slow on long strings in V8 (it grows with the square of the length), so it
 * only ever sees a window around the place being decided.
 */

export interface ChunkSize {
  /** The most characters of one chunk. */
  size: number;
  /** How far a chunk reaches back into the one before it, at most. */
  overlap: number;
}

/** About 1,200 characters (some 200–300 words: a few paragraphs, within every embedding model's input) with 150 of overlap (a sentence or two). */
export const DEFAULT_CHUNK_SIZE: ChunkSize = { size: 1200, overlap: 150 };

/** Characters of context on each side of a window, so that the boundaries inside it are those of the whole text. */
const CONTEXT = 64;
const WHITESPACE = /\s/;

let sentenceSegmenter: Intl.Segmenter | undefined;
let wordSegmenter: Intl.Segmenter | undefined;

/** Positions p with from ≤ p ≤ to where a segment of `granularity` starts, in order. */
function segmentStarts(text: string, from: number, to: number, granularity: 'sentence' | 'word'): number[] {
  const segmenter =
    granularity === 'sentence' ? (sentenceSegmenter ??= new Intl.Segmenter('und', { granularity })) : (wordSegmenter ??= new Intl.Segmenter('und', { granularity }));
  const windowStart = Math.max(0, from - CONTEXT);
  const starts: number[] = [];
  for (const { index } of segmenter.segment(text.slice(windowStart, Math.min(text.length, to + CONTEXT)))) {
    const at = windowStart + index;
    // The window's own first position is a boundary only when it is the text's start.
    if (at >= from && at <= to && (index > 0 || windowStart === 0)) starts.push(at);
  }
  return starts;
}

/** Where the chunk starting at `start` ends. */
function chunkEnd(text: string, start: number, size: number, blockStarts: readonly number[]): number {
  const limit = start + size;
  if (limit >= text.length) return text.length;
  const half = start + Math.ceil(size / 2);
  const block = lastWithin(blockStarts, half, limit);
  if (block !== undefined) return block;
  const sentence = segmentStarts(text, half, limit, 'sentence').at(-1);
  if (sentence !== undefined) return sentence;
  for (let p = limit; p > start + size / 4; p--) if (WHITESPACE.test(text[p]!)) return p;
  const word = segmentStarts(text, start + 1, limit, 'word').at(-1);
  return word ?? fullChunkEnd(text, limit);
}

/** One unbroken run longer than a chunk: cut where the chunk is full, but not between the two halves of a surrogate pair. */
function fullChunkEnd(text: string, limit: number): number {
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** Where the chunk after one that ended at `end` starts: up to `overlap` back, at a sentence or word start. */
function nextStart(text: string, start: number, end: number, overlap: number): number {
  const from = Math.max(start + 1, end - overlap);
  if (overlap <= 0 || from >= end) return end;
  const sentence = segmentStarts(text, from, end - 1, 'sentence')[0];
  if (sentence !== undefined) return sentence;
  for (let p = from; p < end; p++) if (WHITESPACE.test(text[p - 1]!) && !WHITESPACE.test(text[p]!)) return p;
  return segmentStarts(text, from, end - 1, 'word')[0] ?? end;
}

/** The last of the sorted `positions` within [from, to]. */
function lastWithin(positions: readonly number[], from: number, to: number): number | undefined {
  for (let i = positions.length - 1; i >= 0; i--) {
    const p = positions[i]!;
    if (p <= to) return p >= from ? p : undefined;
  }
  return undefined;
}

/**
 * The chunks of `text`, trimmed, none empty; a text within `size` is one chunk.
 * @example chunkText(longArticle, DEFAULT_CHUNK_SIZE) // ['First paragraphs…', '…last sentence of the first. Next paragraphs…', …]
 */
export function chunkText(text: string, { size, overlap }: ChunkSize, blockStarts: readonly number[] = []): string[] {
  if (text.length <= size) {
    const whole = text.trim();
    return whole === '' ? [] : [whole];
  }
  const chunks: string[] = [];
  let start = 0;
  let previousEnd = 0;
  while (start < text.length) {
    let end = chunkEnd(text, start, size, blockStarts);
    // Each chunk must reach past the one before it, or the overlap would only repeat it.
    if (end <= previousEnd) end = fullChunkEnd(text, Math.min(text.length, start + size));
    previousEnd = end;
    const chunk = text.slice(start, end).trim();
    if (chunk !== '') chunks.push(chunk);
    if (end >= text.length) break;
    start = nextStart(text, start, end, overlap);
  }
  return chunks;
}
