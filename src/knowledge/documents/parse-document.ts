import { titleFromName, type DocumentMediaType, type ParsedDocument } from './document.js';
import { refuseOversized, tooLarge, type DocumentLimits } from './limits.js';
import { documentMediaType, type DocumentIdentity } from './media-type.js';
import { parsePlainText } from './plain-text.js';
import { decodeDocumentText } from './text-decoding.js';

/** A document as it arrives: its bytes, its name (file name or URL), what the sender declared, and a title if the user gave one. */
export interface DocumentInput extends DocumentIdentity {
  bytes: Uint8Array;
  title?: string;
}

/**
 * Each type's parser, loaded on the first document of that type: a server that never ingests a
 * PDF never loads pdf.js (W6, the idle memory target), nor marked or htmlparser2 without Markdown
 * or HTML.
 */
const PARSERS: Record<DocumentMediaType, (input: DocumentInput, title: string, limits: DocumentLimits) => Promise<ParsedDocument>> = {
  'text/plain': async (input, title, limits) => parsePlainText(textOf(input, limits), title),
  'text/markdown': async (input, title, limits) => (await import('./markdown.js')).parseMarkdown(textOf(input, limits), title),
  'text/html': async (input, title, limits) => (await import('./html.js')).parseHtml(textOf(input, limits), title),
  'application/pdf': async (input, title, limits) => (await import('./pdf.js')).parsePdf(input.bytes, input.name, title, limits),
};

function textOf(input: DocumentInput, limits: DocumentLimits): string {
  const text = decodeDocumentText(input.bytes, input.declaredType);
  if (text.length > limits.maxChars) throw tooLarge(input.name, `${text.length} characters of text, more than the ${limits.maxChars} a document may have`);
  return text;
}

/**
 * A document's title and blocks, by its type (`documentMediaType`). The title is the one the user
 * gave, else the document's own (Markdown front matter or first `#` heading, HTML `<title>` or
 * first `<h1>`, a PDF's Title), else the file name without its extension. Throws an AppError that
 * names the document when it is too large (100007) or cannot be read (10002).
 * @example const doc = await parseDocument({ name: 'guide.md', declaredType: 'text/markdown', bytes }, documentLimits(config))
 */
export async function parseDocument(input: DocumentInput, limits: DocumentLimits): Promise<ParsedDocument> {
  refuseOversized(input.name, input.bytes.length, limits.maxBytes);
  const given = input.title?.replace(/\s+/g, ' ').trim();
  const document = await PARSERS[documentMediaType(input, input.bytes)](input, given || titleFromName(input.name), limits);
  return given ? { ...document, title: given } : document;
}
