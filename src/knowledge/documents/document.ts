/**
 * A document as the knowledge bases read it: its title and its blocks in reading order, each with
 * the headings it stands under, so that chunking can follow the structure and each passage can say
 * which section it came from. Every parser (text, Markdown, HTML, PDF) produces this shape.
 */

/** The media types a knowledge base reads. */
export const DOCUMENT_MEDIA_TYPES = ['text/plain', 'text/markdown', 'text/html', 'application/pdf'] as const;
export type DocumentMediaType = (typeof DOCUMENT_MEDIA_TYPES)[number];

/**
 * - `heading`: a heading's own text (its `headingPath` ends with it); kept as a block so that a
 *   document of headings alone still has text, and so that a passage starting a section says so;
 * - `paragraph`: running text; `list`: the items, one a line (`- item`, nested items indented);
 * - `table`: one row a line, as `Header: value; Header: value` when the table has a header row;
 * - `code`: preformatted text, whitespace kept; `page`: a PDF page's text (`page` says which).
 */
export type BlockKind = 'heading' | 'paragraph' | 'list' | 'table' | 'code' | 'page';

export interface DocumentBlock {
  kind: BlockKind;
  /** The headings above the block, outermost first; for a heading block, ending with itself. */
  headingPath: string[];
  text: string;
  /** A PDF page's number, from 1. */
  page?: number;
}

/**
 * @example { title: 'Refund policy', mediaType: 'text/markdown', blocks: [{ kind: 'heading', headingPath: ['Refunds'], text: 'Refunds' }, { kind: 'paragraph', headingPath: ['Refunds'], text: 'Paid within 14 days.' }] }
 */
export interface ParsedDocument {
  title: string;
  mediaType: DocumentMediaType;
  blocks: DocumentBlock[];
}

/**
 * Builds the blocks of a document in reading order, keeping the trail of headings: a heading of
 * level n closes every open heading of level n or deeper.
 */
export class BlockList {
  readonly blocks: DocumentBlock[] = [];
  /** The text of the document's first level-1 heading: the title of a document that gives none otherwise. */
  firstTopHeading: string | undefined;
  private trail: Array<{ level: number; text: string }> = [];

  /** A heading of `level` (1 outermost); blank headings are dropped. */
  heading(level: number, text: string): void {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean === '') return;
    if (level === 1) this.firstTopHeading ??= clean;
    while (this.trail.length > 0 && this.trail.at(-1)!.level >= level) this.trail.pop();
    this.trail.push({ level, text: clean });
    this.blocks.push({ kind: 'heading', headingPath: this.path(), text: clean });
  }

  /** A block under the current headings; blank text is dropped. */
  add(kind: Exclude<BlockKind, 'heading'>, text: string, page?: number): void {
    const clean = kind === 'code' ? text.replace(/^\s*\n|\s+$/g, '') : text.trim();
    if (clean === '') return;
    this.blocks.push({ kind, headingPath: this.path(), text: clean, ...(page === undefined ? {} : { page }) });
  }

  private path(): string[] {
    return this.trail.map((heading) => heading.text);
  }
}

/** The title a document without one of its own gets: its file name (or its URL's last part) without the extension. */
export function titleFromName(name: string): string {
  const path = name.split(/[?#]/)[0]!.replace(/[\\/]+$/, '');
  let base = path.split(/[\\/]/).pop() ?? path;
  try {
    base = decodeURIComponent(base);
  } catch {
    // Not percent-encoded after all: keep it as written.
  }
  const stem = base.replace(/\.[A-Za-z0-9]{1,8}$/, '').trim();
  return stem === '' ? 'Untitled' : stem;
}
