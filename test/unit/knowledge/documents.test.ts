import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { documentLimits } from '../../../src/knowledge/documents/limits.js';
import { documentMediaType, refuseUnreadableType } from '../../../src/knowledge/documents/media-type.js';
import { parseDocument, type DocumentInput } from '../../../src/knowledge/documents/parse-document.js';
import { decodeDocumentText } from '../../../src/knowledge/documents/text-decoding.js';
import { AppError } from '../../../src/shared/app-error.js';
import { makePdf } from '../../helpers/pdf-files.js';
import { rejectionOf } from '../../helpers/rejection.js';

/** Documents from bytes: which parser, the text's encoding, what each parser keeps, and the limits. */

const limits = documentLimits(loadConfig({}));

function parse(name: string, content: string | Buffer, declaredType?: string, title?: string) {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const input: DocumentInput = { name, bytes, declaredType, ...(title === undefined ? {} : { title }) };
  return parseDocument(input, limits);
}

/** The blocks as `kind [heading path]: text`, easy to compare whole. */
function outline(blocks: Array<{ kind: string; headingPath: string[]; text: string; page?: number }>): string[] {
  return blocks.map((b) => `${b.kind}${b.page ? ` p${b.page}` : ''} [${b.headingPath.join(' › ')}]: ${b.text}`);
}

describe('documentMediaType', () => {
  const text = Buffer.from('Hello');
  it.each([
    ['a PDF by its bytes, whatever it was called', { name: 'scan.txt', declaredType: 'text/plain' }, makePdf([['x']]), 'application/pdf'],
    ['declared Markdown', { name: 'notes', declaredType: 'text/markdown; charset=utf-8' }, text, 'text/markdown'],
    ['declared x-markdown', { name: 'notes', declaredType: 'text/x-markdown' }, text, 'text/markdown'],
    ['declared XHTML', { name: 'page', declaredType: 'application/xhtml+xml' }, text, 'text/html'],
    ['.md sent as text/plain', { name: 'README.md', declaredType: 'text/plain' }, text, 'text/markdown'],
    ['.markdown sent as octet-stream', { name: 'guide.markdown', declaredType: 'application/octet-stream' }, text, 'text/markdown'],
    ['.htm from a URL with a query', { name: 'https://example.com/faq.htm?lang=en' }, text, 'text/html'],
    ['text/plain without a telling name', { name: 'notes', declaredType: 'text/plain' }, text, 'text/plain'],
    ['an HTML page by its start', { name: 'download' }, Buffer.from('\n  <!DOCTYPE html><html><body>x</body></html>'), 'text/html'],
    ['other text', { name: 'data.csv', declaredType: 'text/csv' }, Buffer.from('a,b\n1,2'), 'text/plain'],
    ['UTF-16 text (NUL bytes, but a byte order mark)', { name: 'notes.txt' }, Buffer.from('\ufeffHi', 'utf16le'), 'text/plain'],
  ])('reads %s', (_what, identity, bytes, expected) => {
    expect(documentMediaType(identity, bytes)).toBe(expected);
  });

  it('refuses a file declared or named PDF that is not one, naming it', () => {
    expect(() => documentMediaType({ name: 'report.pdf', declaredType: 'application/pdf' }, text)).toThrow('"report.pdf" is declared as application/pdf but is not a PDF (it does not start with %PDF-)');
    expect(() => documentMediaType({ name: 'report.pdf' }, text)).toThrow('"report.pdf" is named .pdf but is not a PDF');
  });

  it('refuses binary files, naming them and what they were declared as', () => {
    const docx = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
    let error: unknown;
    try {
      documentMediaType({ name: 'contract.docx', declaredType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, docx);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: 10002, httpStatus: 400 });
    expect((error as Error).message).toBe(
      '"contract.docx" is not a text, Markdown, HTML or PDF document (declared as application/vnd.openxmlformats-officedocument.wordprocessingml.document): its bytes are binary',
    );
  });
});

describe('refuseUnreadableType', () => {
  it.each([
    ['no type', { name: 'notes' }],
    ['a generic type', { name: 'notes', declaredType: 'application/octet-stream' }],
    ['any text type', { name: 'data.csv', declaredType: 'text/csv' }],
    ['a document type', { name: 'scan', declaredType: 'application/pdf' }],
    ['an odd type on a document name', { name: 'guide.md', declaredType: 'application/x-unknown' }],
  ])('lets %s through (the bytes decide)', (_what, identity) => {
    expect(() => refuseUnreadableType(identity)).not.toThrow();
  });

  it('refuses a type no parser reads, naming the file, its type and what is accepted (10002)', async () => {
    expect(await rejectionOf((async () => refuseUnreadableType({ name: 'logo.png', declaredType: 'image/png; q=1' }))())).toMatchObject({
      code: 10002,
      httpStatus: 400,
      message: '"logo.png" is image/png, which a knowledge base cannot read: send text (text/plain), Markdown (text/markdown), HTML (text/html) or PDF (application/pdf)',
    });
    expect(() => refuseUnreadableType({ name: 'book.epub', declaredType: 'application/epub+zip' })).toThrow('"book.epub" is application/epub+zip');
  });
});

describe('decodeDocumentText', () => {
  it('reads UTF-8, dropping a byte order mark, with line ends as \\n', () => {
    expect(decodeDocumentText(Buffer.from('\ufeffcafé\r\nnext\rlast', 'utf8'))).toBe('café\nnext\nlast');
  });

  it('reads UTF-16 by its byte order mark', () => {
    expect(decodeDocumentText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße', 'utf16le')]))).toBe('Grüße');
    const be = Buffer.from('Grüße', 'utf16le').swap16();
    expect(decodeDocumentText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('Grüße');
  });

  it('reads other encodings by the declared charset, an HTML meta charset, else windows-1252', () => {
    const cyrillic = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]); // "Привет" in windows-1251
    expect(decodeDocumentText(cyrillic, 'text/plain; charset=windows-1251')).toBe('Привет');
    expect(decodeDocumentText(Buffer.concat([Buffer.from('<meta charset="windows-1251"><p>'), cyrillic]))).toBe('<meta charset="windows-1251"><p>Привет');
    // windows-1252's own characters in 0x80–0x9F (€, curly quotes), which Node 20's decoder misses.
    expect(decodeDocumentText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x20, 0x93, 0x68, 0x69, 0x94]))).toBe('café € “hi”');
  });
});

describe('plain text', () => {
  it('gives a paragraph per run of lines, line breaks kept, titled by the file name', async () => {
    const document = await parse('notes/Meeting notes.txt', 'First line\nsecond line\n\n\n  \nNext paragraph.\n');
    expect(document.title).toBe('Meeting notes');
    expect(document.mediaType).toBe('text/plain');
    expect(outline(document.blocks)).toEqual(['paragraph []: First line\nsecond line', 'paragraph []: Next paragraph.']);
  });

  it('takes the title the user gave over any other', async () => {
    expect((await parse('a.md', '# Own title', undefined, '  Given   title ')).title).toBe('Given title');
  });
});

describe('Markdown', () => {
  const markdown = [
    '---',
    'title: "Support handbook"',
    'tags: [help]',
    '---',
    '# Refunds',
    '',
    'We pay **refunds** within [14 days](https://example.com) &amp; keep `receipts`.',
    'A soft break joins lines.  ',
    'A hard break does not.',
    '',
    '- Gift cards',
    '  - digital ones too',
    '- [x] Downloads',
    '',
    '3. third',
    '4. fourth',
    '',
    '## Fees',
    '',
    '| Plan | Fee |',
    '|------|-----|',
    '| Pro  | 5 € |',
    '| Team |     |',
    '',
    '```sh',
    'curl -X POST /refunds',
    '  --data x',
    '```',
    '',
    '> Quoted advice.',
    '',
    '<div class="note">Inline <b>HTML</b> &copy; kept</div>',
    '',
    'Shipping',
    '========',
    '',
    'Text with an image ![the label](label.png).',
  ].join('\n');

  it('reads headings, paragraphs without markup, lists, tables, code, quotes and HTML, with the front matter title', async () => {
    const document = await parse('handbook.md', markdown);
    expect(document.title).toBe('Support handbook');
    expect(outline(document.blocks)).toEqual([
      'heading [Refunds]: Refunds',
      'paragraph [Refunds]: We pay refunds within 14 days & keep receipts. A soft break joins lines.\nA hard break does not.',
      'list [Refunds]: - Gift cards\n  - digital ones too\n- [x] Downloads',
      'list [Refunds]: 3. third\n4. fourth',
      'heading [Refunds › Fees]: Fees',
      'table [Refunds › Fees]: Plan: Pro; Fee: 5 €\nPlan: Team',
      'code [Refunds › Fees]: curl -X POST /refunds\n  --data x',
      'paragraph [Refunds › Fees]: Quoted advice.',
      'paragraph [Refunds › Fees]: Inline HTML © kept',
      'heading [Shipping]: Shipping',
      'paragraph [Shipping]: Text with an image the label.',
    ]);
  });

  it('is titled by its first level-1 heading without front matter, else by its file name', async () => {
    expect((await parse('x.md', 'Intro\n\n## Sub\n\n# Main title\n')).title).toBe('Main title');
    expect((await parse('docs/setup-guide.md', 'Just text.')).title).toBe('setup-guide');
  });
});

describe('HTML', () => {
  const html = `<!doctype html><html><head><title>FAQ &amp; help</title><style>p { color: red }</style>
    <script>var secret = "not text";</script></head>
    <body><nav><a href="/">Home</a> <a href="/faq">FAQ</a></nav>
    <h1>Refunds</h1>
    <p>Refunds are paid
       within <b>14 days</b>.<br>Ask support.</p>
    <div>Loose text in a div</div>
    <noscript>Enable JavaScript</noscript>
    <h2>What is covered</h2>
    <ul><li>Gift cards<ul><li>digital</li></ul></li><li>Downloads <p>with a paragraph</p></li></ul>
    <ol start="2"><li>second<li>third</ol>
    <table><caption>Fees</caption><tr><th>Plan</th><th>Fee</th></tr><tr><td>Pro</td><td>5 €</td></tr></table>
    <pre>  indented
    code</pre>
    <h1>Shipping</h1><p>&nbsp;</p><p>We ship worldwide.</p>
    <svg><text>chart label</text></svg>
    </body></html>`;

  it('keeps headings, paragraphs, lists, tables and code, and leaves out script, style, nav and the like', async () => {
    const document = await parse('faq.html', html, 'text/html; charset=utf-8');
    expect(document.title).toBe('FAQ & help');
    expect(outline(document.blocks)).toEqual([
      'heading [Refunds]: Refunds',
      'paragraph [Refunds]: Refunds are paid within 14 days.\nAsk support.',
      'paragraph [Refunds]: Loose text in a div',
      'heading [Refunds › What is covered]: What is covered',
      'list [Refunds › What is covered]: - Gift cards\n  - digital\n- Downloads with a paragraph',
      'list [Refunds › What is covered]: 2. second\n3. third',
      'table [Refunds › What is covered]: Fees\nPlan: Pro; Fee: 5 €',
      'code [Refunds › What is covered]:   indented\n    code',
      'heading [Shipping]: Shipping',
      'paragraph [Shipping]: We ship worldwide.',
    ]);
    const all = document.blocks.map((b) => b.text).join(' ');
    for (const hidden of ['secret', 'color', 'Home', 'Enable JavaScript', 'chart label']) expect(all).not.toContain(hidden);
  });

  it('keeps a layout table whole, with the headings and paragraphs in its cells as cell text', async () => {
    const document = await parse('old.html', '<table><tr><td><h2>Menu</h2><p>Soup</p></td><td>Bread<table><tr><td>inner</td></tr></table></td></tr></table><p>After</p>');
    expect(outline(document.blocks)).toEqual(['table []: Menu Soup | Bread inner', 'paragraph []: After']);
    expect(document.title).toBe('old');
  });

  it('is titled by its first h1 without a <title>', async () => {
    expect((await parse('p.html', '<body><h2>Sub</h2><h1>Main</h1></body>')).title).toBe('Main');
  });
});

describe('PDF', () => {
  it('gives one block per page with text, in order, titled by the PDF Title', async () => {
    const document = await parse('report.pdf', makePdf([['Revenue grew by (10%).', 'Second line.'], [], ['Costs fell: café.']], { title: 'Annual report' }));
    expect(document.title).toBe('Annual report');
    expect(document.mediaType).toBe('application/pdf');
    expect(outline(document.blocks)).toEqual(['page p1 []: Revenue grew by (10%).\nSecond line.', 'page p3 []: Costs fell: café.']);
  });

  it('is titled by its file name without a Title', async () => {
    expect((await parse('scans/q3-summary.pdf', makePdf([['x']]))).title).toBe('q3-summary');
  });

  it('refuses a broken PDF, naming it (10002)', async () => {
    const error = await rejectionOf(parse('broken.pdf', Buffer.from('%PDF-1.4\nthis is not a pdf body')), AppError);
    expect(error).toMatchObject({ code: 10002, httpStatus: 400 });
    expect(error.message).toMatch(/^"broken\.pdf" is not a readable PDF/);
  });

  it('refuses a PDF with more pages than allowed', async () => {
    const error = await rejectionOf(parseDocument({ name: 'long.pdf', bytes: makePdf([['a'], ['b'], ['c']]) }, { ...limits, maxPages: 2 }), AppError);
    expect(error).toMatchObject({ code: 100007, httpStatus: 400, message: '"long.pdf": 3 pages, more than the 2 a document may have' });
  });

  it('refuses a PDF with more text than allowed, saying by which page', async () => {
    const error = await rejectionOf(parseDocument({ name: 'wordy.pdf', bytes: makePdf([['a'.repeat(60)], ['b'.repeat(60)]]) }, { ...limits, maxChars: 100 }), AppError);
    expect(error.message).toBe('"wordy.pdf": more than the 100 characters of text a document may have (by page 2)');
  });
});

describe('size limits', () => {
  it('refuses a document larger than KNOWLEDGE_DOCUMENT_MAX_SIZE before reading it (100007, naming it)', async () => {
    const small = documentLimits(loadConfig({ KNOWLEDGE_DOCUMENT_MAX_SIZE: '1kb' }));
    const error = await rejectionOf(parseDocument({ name: 'big.txt', bytes: Buffer.alloc(1025, 'a') }, small), AppError);
    expect(error).toMatchObject({ code: 100007, httpStatus: 400, message: '"big.txt": 1025 bytes, more than the 1024 a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)' });
    expect((await parseDocument({ name: 'fits.txt', bytes: Buffer.alloc(1024, 'a') }, small)).blocks).toHaveLength(1);
  });

  it('refuses text longer than allowed', async () => {
    const error = await rejectionOf(parseDocument({ name: 'long.md', bytes: Buffer.from('word '.repeat(50)) }, { ...limits, maxChars: 100 }), AppError);
    expect(error.message).toBe('"long.md": 250 characters of text, more than the 100 a document may have');
  });
});
