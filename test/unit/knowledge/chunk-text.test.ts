import { describe, expect, it } from 'vitest';
import { chunkText, DEFAULT_CHUNK_SIZE } from '../../../src/knowledge/chunking/spans.js';

/** Cutting long text into overlapping chunks: sizes, where the cuts fall, the overlap, and texts without spaces. */

const size = DEFAULT_CHUNK_SIZE;

/** Sentences of different lengths, numbered so that each can be found again. */
function sentences(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Sentence ${i} says ${'that refunds of invoices take time '.slice(0, 10 + ((i * 37) % 25))}and ends here.`);
}

/** How many characters at the end of `a` are the start of `b`. */
function overlapOf(a: string, b: string): number {
  for (let n = Math.min(a.length, b.length); n > 0; n--) if (a.endsWith(b.slice(0, n))) return n;
  return 0;
}

describe('chunkText', () => {
  it('gives nothing for empty or blank text', () => {
    expect(chunkText('', size)).toEqual([]);
    expect(chunkText(' \n\t \n', size)).toEqual([]);
  });

  it('gives a text within the size as one trimmed chunk', () => {
    expect(chunkText('  One short paragraph.\n', size)).toEqual(['One short paragraph.']);
    const exact = 'a'.repeat(1200);
    expect(chunkText(exact, size)).toEqual([exact]);
  });

  it('cuts one giant paragraph at sentence ends, each chunk within the size and at least half full', () => {
    const all = sentences(200);
    const chunks = chunkText(all.join(' '), size);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(1200);
      expect(chunk).toMatch(/^Sentence \d+ .*and ends here\.$/s);
    }
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(600);
    // Every sentence is whole in some chunk.
    for (const sentence of all) expect(chunks.some((chunk) => chunk.includes(sentence))).toBe(true);
  });

  it('overlaps each chunk with the end of the one before by whole sentences, up to 150 characters', () => {
    const chunks = chunkText(sentences(200).join(' '), size);
    for (let i = 1; i < chunks.length; i++) {
      const overlap = overlapOf(chunks[i - 1]!, chunks[i]!);
      expect(overlap).toBeGreaterThan(0);
      expect(overlap).toBeLessThanOrEqual(150);
      expect(chunks[i]!.slice(0, overlap)).toMatch(/^Sentence \d+ .*and ends here\.$/);
    }
  });

  it('takes no overlap when asked for none', () => {
    const text = sentences(100).join(' ');
    const chunks = chunkText(text, { size: 1200, overlap: 0 });
    expect(chunks.join(' ')).toBe(text);
  });

  it('prefers block boundaries to sentence ends', () => {
    const blocks = Array.from({ length: 12 }, (_, i) => `Block ${i}. ${sentences(6).join(' ')}`.slice(0, 450));
    let text = '';
    const starts: number[] = [];
    for (const block of blocks) {
      if (text !== '') {
        text += '\n\n';
        starts.push(text.length);
      }
      text += block;
    }
    const chunks = chunkText(text, size, starts);
    // Each chunk ends where a block ends (two blocks of 450 fit, a third does not).
    for (const chunk of chunks) expect(blocks.some((block) => chunk.endsWith(block))).toBe(true);
  });

  it('never cuts inside a word in text without sentences', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
    const text = Array.from({ length: 2000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
    const chunks = chunkText(text, size);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(1200);
      for (const word of chunk.split(' ')) expect(words).toContain(word);
    }
    for (let i = 1; i < chunks.length; i++) expect(overlapOf(chunks[i - 1]!, chunks[i]!)).toBeGreaterThan(100);
  });

  it('cuts Chinese text without spaces or punctuation at word boundaries', () => {
    const text = '我们的退款政策规定所有订单在收到货物后十四天内可以申请全额退款客户需要提供原始发票'.repeat(60);
    const chunks = chunkText(text, size);
    expect(chunks.length).toBeGreaterThan(1);
    // The cuts are where Unicode's word rules put a boundary in the whole text.
    const boundaries = new Set([...new Intl.Segmenter('zh', { granularity: 'word' }).segment(text)].map((s) => s.index));
    let from = 0;
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(1200);
      const at = text.indexOf(chunk, from);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(boundaries.has(at)).toBe(true);
      expect(boundaries.has(at + chunk.length) || at + chunk.length === text.length).toBe(true);
      from = at + 1;
    }
  });

  it('cuts Japanese text at its sentence ends (。) when there are some', () => {
    const sentence = '返金は商品到着後十四日以内に受け付けます。';
    const chunks = chunkText(sentence.repeat(200), size);
    for (const chunk of chunks) expect(chunk.endsWith('。')).toBe(true);
  });

  it('cuts a run longer than a chunk where the chunk is full, keeping every character, surrogate pairs whole', () => {
    const hash = 'f'.repeat(3000);
    expect(chunkText(hash, size)).toEqual(['f'.repeat(1200), 'f'.repeat(1200), 'f'.repeat(600)]);
    // One word of letters outside the Basic Multilingual Plane (each two code units), cut at an odd size.
    const word = '𝐚'.repeat(1000);
    const pieces = chunkText(word, { size: 1201, overlap: 0 });
    expect(pieces.map((piece) => piece.length)).toEqual([1200, 800]);
    expect(pieces.join('')).toBe(word);
  });

  it('stays fast on a long text (the segmenter only sees windows)', () => {
    const text = sentences(20_000).join(' ');
    const started = performance.now();
    const chunks = chunkText(text, size);
    expect(chunks.length).toBeGreaterThan(500);
    // About 0.1 s here; the whole text through Intl.Segmenter would take minutes.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
