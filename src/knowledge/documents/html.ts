import { Parser } from 'htmlparser2';
import { BlockList, type ParsedDocument } from './document.js';
import { tableText, type TableRow } from './table-text.js';

/**
 * HTML with htmlparser2 (the tolerant streaming parser under cheerio and sanitize-html): the
 * readable content as blocks, the rest left out.
 * - Left out with everything inside: script, style, noscript, template, nav (menus repeat on every
 *   page and would crowd the search), svg, iframe, object, canvas, select, and the head (but its
 *   `<title>` is the document's title).
 * - h1–h6 are headings; p, div, blockquote, section and the other block elements end a paragraph;
 *   `<br>` breaks a line; ul/ol are one list block (nested items indented), a table one table block
 *   (see `tableText`), pre one code block with its whitespace kept.
 * - Inside a list or a table everything is text of its item or cell, nested tables and lists too,
 *   so that layout tables and rich list items stay whole and in reading order.
 * - Entities are decoded; whitespace is collapsed as a browser shows it.
 */

const LEFT_OUT = new Set(['script', 'style', 'noscript', 'template', 'nav', 'svg', 'iframe', 'object', 'canvas', 'select', 'head']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'li', 'main',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'td', 'th', 'tr', 'ul',
]);
const HEADING = /^h([1-6])$/;

/** An open table: its rows so far, and where its text goes now. */
class OpenTable {
  readonly rows: TableRow[] = [];
  readonly caption: string[] = [];
  cell: string[] | null = null;
  /** Tables opened inside this one and not closed yet (their text is this table's cell text). */
  nested = 0;

  open(name: string): void {
    if (name === 'table') this.nested++;
    if (this.nested > 0 || (name !== 'tr' && name !== 'td' && name !== 'th')) {
      if (BLOCK.has(name) || name === 'br') this.text(' ');
      return;
    }
    if (name === 'tr' || this.rows.length === 0) this.rows.push({ cells: [], header: true });
    if (name === 'tr') return;
    const row = this.rows.at(-1)!;
    if (name === 'td') row.header = false;
    row.cells.push('');
    this.cell = [];
  }

  /** Whether the table itself ended. */
  close(name: string): boolean {
    if (name === 'table') {
      if (this.nested === 0) return true;
      this.nested--;
    } else if ((name === 'td' || name === 'th') && this.nested === 0 && this.cell) {
      const cells = this.rows.at(-1)!.cells;
      cells[cells.length - 1] = collapse(this.cell).replace(/\n/g, ' ');
      this.cell = null;
    }
    return false;
  }

  text(text: string): void {
    (this.cell ?? this.caption).push(text);
  }

  toText(): string {
    return [collapse(this.caption), tableText(this.rows)].filter((part) => part !== '').join('\n');
  }
}

/** An open list: its lines so far (nested items indented) and the item being read. */
class OpenList {
  readonly lines: string[] = [];
  private readonly levels: Array<{ ordered: boolean; next: number }> = [];
  private item: { depth: number; marker: string; text: string[] } | null = null;

  constructor(name: string, start: string | undefined) {
    this.open(name, start);
  }

  open(name: string, start?: string): void {
    if (name === 'ul' || name === 'ol') {
      this.endItem();
      const first = Number(start);
      this.levels.push({ ordered: name === 'ol', next: Number.isInteger(first) ? first : 1 });
    } else if (name === 'li') {
      this.endItem();
      const level = this.levels.at(-1)!;
      this.item = { depth: this.levels.length, marker: level.ordered ? `${level.next++}.` : '-', text: [] };
    } else if (BLOCK.has(name) || name === 'br') this.text(' ');
  }

  /** Whether the list itself ended. */
  close(name: string): boolean {
    if (name === 'li') this.endItem();
    if (name !== 'ul' && name !== 'ol') return false;
    this.endItem();
    this.levels.pop();
    return this.levels.length === 0;
  }

  text(text: string): void {
    // Text outside any item (invalid, but browsers show it) reads as an item of its own.
    this.item ??= { depth: this.levels.length, marker: '-', text: [] };
    this.item.text.push(text);
  }

  private endItem(): void {
    if (!this.item) return;
    const text = collapse(this.item.text).replace(/\n/g, ' ');
    if (text !== '') this.lines.push(`${'  '.repeat(this.item.depth - 1)}${this.item.marker} ${text}`);
    this.item = null;
  }
}

/** Walks HTML into `blocks` (Markdown uses it for the HTML inside a Markdown file). Returns the `<title>`'s text. */
export function addHtmlBlocks(html: string, blocks: BlockList): string {
  let leftOut = 0;
  let title: string[] | null = null;
  let titleText = '';
  let pre: { depth: number; text: string[] } | null = null;
  let container: OpenTable | OpenList | null = null;
  let heading: { level: number; text: string[] } | null = null;
  let paragraph: string[] = [];
  const endParagraph = () => {
    blocks.add('paragraph', collapse(paragraph));
    paragraph = [];
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title' && title === null && titleText === '') title = [];
        if (leftOut > 0 || LEFT_OUT.has(name)) {
          if (LEFT_OUT.has(name)) leftOut++;
        } else if (pre) {
          if (name === 'pre') pre.depth++;
        } else if (container) {
          if (container instanceof OpenTable) container.open(name);
          else container.open(name, attributes.start);
        } else if (heading) {
          if (name === 'br') heading.text.push(' ');
        } else if (name === 'table' || name === 'ul' || name === 'ol') {
          endParagraph();
          container = name === 'table' ? new OpenTable() : new OpenList(name, attributes.start);
        } else if (name === 'pre') {
          endParagraph();
          pre = { depth: 1, text: [] };
        } else if (HEADING.test(name)) {
          endParagraph();
          heading = { level: Number(HEADING.exec(name)![1]), text: [] };
        } else if (name === 'br') paragraph.push('\n');
        else if (BLOCK.has(name)) endParagraph();
      },
      ontext(text) {
        // Line breaks in the source are spaces on the page; only <br> (pushed as \n) breaks a line.
        const flat = text.replace(/\s+/g, ' ');
        if (title) title.push(flat);
        else if (leftOut > 0) return;
        else if (pre) pre.text.push(text);
        else if (container) container.text(flat);
        else (heading?.text ?? paragraph).push(flat);
      },
      onclosetag(name) {
        if (name === 'title' && title) {
          titleText = collapse(title);
          title = null;
        }
        if (leftOut > 0) {
          if (LEFT_OUT.has(name)) leftOut--;
        } else if (pre) {
          if (name === 'pre' && --pre.depth === 0) {
            blocks.add('code', pre.text.join(''));
            pre = null;
          }
        } else if (container) {
          if (container.close(name)) {
            blocks.add(container instanceof OpenTable ? 'table' : 'list', container instanceof OpenTable ? container.toText() : container.lines.join('\n'));
            container = null;
          }
        } else if (heading) {
          if (HEADING.test(name)) {
            blocks.heading(heading.level, collapse(heading.text));
            heading = null;
          }
        } else if (BLOCK.has(name)) endParagraph();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return titleText;
}

/** Collected text pieces as lines: whitespace within a line collapsed as a browser shows it, lines trimmed, empty lines dropped. */
function collapse(pieces: string[]): string {
  return pieces
    .join('')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/**
 * @example parseHtml('<title>FAQ</title><h1>Refunds</h1><p>Paid within 14 days.</p>', 'faq') // title 'FAQ', a heading and a paragraph
 */
export function parseHtml(html: string, fallbackTitle: string): ParsedDocument {
  const blocks = new BlockList();
  const title = addHtmlBlocks(html, blocks);
  return { title: title || blocks.firstTopHeading || fallbackTitle, mediaType: 'text/html', blocks: blocks.blocks };
}

/**
 * The text of inline HTML, tags dropped, entities decoded, whitespace as it was (Markdown's inline
 * HTML and entities, which sit between other text).
 * @example inlineHtmlText(' &amp; <b>more</b> ') // ' & more '
 */
export function inlineHtmlText(html: string): string {
  const pieces: string[] = [];
  let leftOut = 0;
  const parser = new Parser(
    {
      onopentag: (name) => void (LEFT_OUT.has(name) && leftOut++),
      onclosetag: (name) => void (LEFT_OUT.has(name) && leftOut > 0 && leftOut--),
      ontext: (text) => void (leftOut === 0 && pieces.push(text)),
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return pieces.join('');
}
