import { Lexer, type Token, type Tokens } from 'marked';
import { BlockList, type ParsedDocument } from './document.js';
import { addHtmlBlocks, inlineHtmlText } from './html.js';
import { tableText } from './table-text.js';

/**
 * Markdown (CommonMark with GitHub's tables, task lists and strikethrough) through marked's lexer:
 * its tokens, not its HTML, so that the structure is read as it was written.
 * - `#` and underlined headings are headings; paragraphs lose their markup (emphasis, links keep
 *   their text, images their alt text, inline code its code);
 * - a list is one block, one item a line, nested items indented, tasks as `[x]` or `[ ]`;
 * - a table one block (`tableText`); fenced and indented code one code block;
 * - block quotes give their paragraphs; HTML inside the Markdown is read as HTML;
 * - a leading YAML front matter block (`---` … `---`) is not text; its `title:` is the title,
 *   else the first level-1 heading is.
 */

export function parseMarkdown(markdown: string, fallbackTitle: string): ParsedDocument {
  const { body, title } = withoutFrontMatter(markdown);
  const blocks = new BlockList();
  addTokens(new Lexer({ gfm: true }).lex(body), blocks);
  return { title: title || blocks.firstTopHeading || fallbackTitle, mediaType: 'text/markdown', blocks: blocks.blocks };
}

const FRONT_MATTER = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

function withoutFrontMatter(markdown: string): { body: string; title: string } {
  const match = FRONT_MATTER.exec(markdown);
  if (!match) return { body: markdown, title: '' };
  const title = /^title:[ \t]*(.+)$/m.exec(match[1]!)?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2') ?? '';
  return { body: markdown.slice(match[0].length), title };
}

function addTokens(tokens: Token[], blocks: BlockList): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'heading':
        blocks.heading((token as Tokens.Heading).depth, inline((token as Tokens.Heading).tokens));
        break;
      case 'paragraph':
        blocks.add('paragraph', inline((token as Tokens.Paragraph).tokens));
        break;
      case 'text':
        blocks.add('paragraph', inline([token]));
        break;
      case 'code':
        blocks.add('code', (token as Tokens.Code).text);
        break;
      case 'list':
        blocks.add('list', listLines(token as Tokens.List, 1).join('\n'));
        break;
      case 'table': {
        const table = token as Tokens.Table;
        const cells = (row: Tokens.TableCell[]) => row.map((cell) => inline(cell.tokens).replace(/\s+/g, ' ').trim());
        blocks.add('table', tableText([{ cells: cells(table.header), header: true }, ...table.rows.map((row) => ({ cells: cells(row), header: false }))]));
        break;
      }
      case 'blockquote':
        addTokens((token as Tokens.Blockquote).tokens, blocks);
        break;
      case 'html':
        addHtmlBlocks((token as Tokens.HTML).text, blocks);
        break;
      default:
      // Spaces, rules, link definitions: no text.
    }
  }
}

/** An item a line: its marker, its text, its nested lists below it, indented by depth. */
function listLines(list: Tokens.List, depth: number): string[] {
  const lines: string[] = [];
  const first = typeof list.start === 'number' ? list.start : 1;
  list.items.forEach((item, index) => {
    const marker = `${list.ordered ? `${first + index}.` : '-'}${item.task ? (item.checked ? ' [x]' : ' [ ]') : ''}`;
    const nested: string[] = [];
    const own: string[] = [];
    for (const token of item.tokens) {
      if (token.type === 'list') nested.push(...listLines(token as Tokens.List, depth + 1));
      else if (token.type !== 'checkbox') own.push('tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens as Token[]) : inline([token]));
    }
    const text = own.join(' ').replace(/\s+/g, ' ').trim();
    if (text !== '') lines.push(`${'  '.repeat(depth - 1)}${marker} ${text}`);
    lines.push(...nested);
  });
  return lines;
}

/** Inline tokens as plain text. */
function inline(tokens: Token[] | undefined): string {
  if (!tokens) return '';
  return tokens.map(inlineText).join('');
}

function inlineText(token: Token): string {
  switch (token.type) {
    case 'text':
      // A line break inside a paragraph's text is a soft one (the source was wrapped): a space. Hard breaks are `br` tokens.
      return 'tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0 ? inline(token.tokens as Token[]) : entities((token as Tokens.Text).text).replace(/\n/g, ' ');
    case 'escape':
    case 'codespan':
      return (token as Tokens.Codespan).text;
    case 'br':
      return '\n';
    case 'image':
      return (token as Tokens.Image).text;
    case 'html':
    case 'tag':
      return inlineHtmlText((token as Tokens.Tag).raw);
    case 'checkbox':
      return '';
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens as Token[]) : 'text' in token && typeof token.text === 'string' ? token.text : '';
  }
}

/** Marked leaves character references (`&amp;`, `&#8364;`) as written; decoded here, and only where there is one. */
function entities(text: string): string {
  return text.includes('&') ? inlineHtmlText(text.replace(/</g, '&lt;')) : text;
}
