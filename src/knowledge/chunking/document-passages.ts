import type { DocumentBlock, ParsedDocument } from '../documents/document.js';
import { chunkText, DEFAULT_CHUNK_SIZE, type ChunkSize } from './spans.js';

/**
 * A parsed document as passages, along its structure:
 * - A section is a heading with the blocks under it (a PDF page is a section of its own); passages
 *   never span two sections, so that each has one title and one topic.
 * - A heading directly followed by another (a chapter heading before its first subsection) has no
 *   text of its own; it joins the next section, whose title is the deeper one. Headings that are
 *   never followed by text (a document of headings alone) make a passage of their own.
 * - A section's text is its heading and blocks, a blank line between two; when longer than the
 *   chunk size it is cut by `chunkText`, at block boundaries first, with overlap.
 * - The title: the section's heading path joined with ` › ` (`Guide › Install › Linux`); before the
 *   first heading, the document's title; a PDF page adds `, page N`.
 * The heading is in the text too (where the section begins), so that its words are found by a
 * search that reads only the text.
 */

export interface DocumentPassage {
  title: string;
  content: string;
}

interface Section {
  headingPath: string[];
  page?: number;
  blocks: DocumentBlock[];
  /** Whether any block is more than a heading. */
  hasBody: boolean;
}

function sectionsOf(blocks: readonly DocumentBlock[]): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const block of blocks) {
    const startsSection = block.kind === 'heading' || block.kind === 'page' || (current !== null && block.page !== current.page);
    if (!current || (startsSection && current.hasBody)) {
      current = { headingPath: block.headingPath, page: block.page, blocks: [], hasBody: false };
      sections.push(current);
    } else if (startsSection) {
      // The open section is headings only: this block's section takes them in, and its title.
      current.headingPath = block.headingPath;
      current.page = block.page;
    }
    current.blocks.push(block);
    if (block.kind !== 'heading') current.hasBody = true;
  }
  return sections;
}

function titleOf(section: Section, documentTitle: string): string {
  const base = section.headingPath.length > 0 ? section.headingPath.join(' › ') : documentTitle;
  return section.page === undefined ? base : `${base}, page ${section.page}`;
}

/**
 * @example documentPassages(await parseDocument(input, limits)) // [{ title: 'Refunds › Deadlines', content: 'Deadlines\n\nRefunds are paid within 14 days…' }, …]
 */
export function documentPassages(document: ParsedDocument, chunkSize: ChunkSize = DEFAULT_CHUNK_SIZE): DocumentPassage[] {
  const passages: DocumentPassage[] = [];
  for (const section of sectionsOf(document.blocks)) {
    // A headings-only group keeps the title of where it began, not of its last heading.
    const title = titleOf(section.hasBody ? section : { ...section, headingPath: section.blocks[0]!.headingPath }, document.title);
    let text = '';
    const blockStarts: number[] = [];
    for (const block of section.blocks) {
      if (text !== '') {
        text += '\n\n';
        blockStarts.push(text.length);
      }
      text += block.text;
    }
    for (const content of chunkText(text, chunkSize, blockStarts)) passages.push({ title, content });
  }
  return passages;
}
