import { describe, expect, it, vi } from 'vitest';
import { makePdf } from '../../helpers/pdf-files.js';

/**
 * The document parsers' libraries are loaded on the first document that needs them, not when the
 * server starts (W6: an idle server holds at most 150 MB). Each library is wrapped to note when it
 * is first evaluated.
 */

const loaded = vi.hoisted(() => new Set<string>());
vi.mock('unpdf', async (original) => (loaded.add('unpdf'), original()));
vi.mock('marked', async (original) => (loaded.add('marked'), original()));
vi.mock('htmlparser2', async (original) => (loaded.add('htmlparser2'), original()));

const limits = { maxBytes: 1e6, maxChars: 1e6, maxPages: 10 };

describe('loading the document parsers', () => {
  it('loads no parser library with the module nor for plain text, and each on its first document', async () => {
    const { parseDocument } = await import('../../../src/knowledge/documents/parse-document.js');
    await parseDocument({ name: 'a.txt', bytes: Buffer.from('plain') }, limits);
    expect([...loaded]).toEqual([]);
    await parseDocument({ name: 'a.html', bytes: Buffer.from('<p>x</p>') }, limits);
    expect([...loaded].sort()).toEqual(['htmlparser2']);
    await parseDocument({ name: 'a.md', bytes: Buffer.from('# x') }, limits);
    expect([...loaded].sort()).toEqual(['htmlparser2', 'marked']);
    await parseDocument({ name: 'a.pdf', bytes: makePdf([['x']]) }, limits);
    expect([...loaded].sort()).toEqual(['htmlparser2', 'marked', 'unpdf']);
  });
});
