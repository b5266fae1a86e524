import { BlockList, type ParsedDocument } from './document.js';

/**
 * Plain text: one paragraph per run of lines between blank lines, its line breaks kept (they may be
 * a poem's or an address's). No headings: the title is the one given, else the file name's.
 * @example parsePlainText('First paragraph.\n\nSecond one.', 'notes') // 2 paragraph blocks
 */
export function parsePlainText(text: string, title: string): ParsedDocument {
  const blocks = new BlockList();
  for (const paragraph of text.split(/\n[ \t]*\n/)) blocks.add('paragraph', paragraph.replace(/[ \t]+$/gm, ''));
  return { title, mediaType: 'text/plain', blocks: blocks.blocks };
}
