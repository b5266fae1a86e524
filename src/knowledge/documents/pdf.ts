import { getDocumentProxy } from 'unpdf';
import { AppError } from '../../shared/app-error.js';
import { BlockList, type ParsedDocument } from './document.js';
import { tooLarge, type DocumentLimits } from './limits.js';

/**
 * PDF with unpdf (Mozilla's pdf.js built for servers, no canvas, no worker): one `page` block per
 * page with text, in page order, its lines as pdf.js reads them. The title is the document's
 * `Title` in its information dictionary, else the fallback. Scanned pages without a text layer
 * give no text (there is no OCR). pdf.js runs with `isEvalSupported: false`, so a hostile font
 * cannot run code, and pages are read one at a time, each released after, so that a large PDF
 * holds one page's objects at a time.
 * unpdf is held at 1.7: its 1.8 needs Node.js 22, and this program runs on 20.
 */

/** pdf.js's error names for what the sender can fix: a password, or a file that is not a PDF. */
const UNREADABLE: Record<string, string> = {
  PasswordException: 'is protected by a password; send it without one',
  InvalidPDFException: 'is not a readable PDF (its structure is broken)',
  MissingPDFException: 'is not a readable PDF (it is empty or cut short)',
  FormatError: 'is not a readable PDF (its structure is broken)',
};

/**
 * @example await parsePdf(bytes, 'report.pdf', 'report', limits) // { title, mediaType: 'application/pdf', blocks: [{ kind: 'page', page: 1, … }] }
 */
export async function parsePdf(bytes: Uint8Array, name: string, fallbackTitle: string, limits: DocumentLimits): Promise<ParsedDocument> {
  // pdf.js takes ownership of (detaches) the array it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, verbosity: 0 }).catch((error: unknown) => {
    throw unreadable(error, name);
  });
  try {
    if (pdf.numPages > limits.maxPages) throw tooLarge(name, `${pdf.numPages} pages, more than the ${limits.maxPages} a document may have`);
    const blocks = new BlockList();
    let chars = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter((line) => line !== '')
        .join('\n');
      page.cleanup();
      chars += text.length;
      if (chars > limits.maxChars) throw tooLarge(name, `more than the ${limits.maxChars} characters of text a document may have (by page ${number})`);
      blocks.add('page', text, number);
    }
    const { info } = (await pdf.getMetadata().catch(() => ({ info: {} }))) as { info: { Title?: unknown } };
    const title = typeof info.Title === 'string' ? info.Title.replace(/\s+/g, ' ').trim() : '';
    return { title: title || fallbackTitle, mediaType: 'application/pdf', blocks: blocks.blocks };
  } catch (error) {
    throw error instanceof AppError ? error : unreadable(error, name);
  } finally {
    await pdf.destroy();
  }
}

function unreadable(error: unknown, name: string): AppError {
  const kind = error instanceof Error ? error.name : '';
  const known = UNREADABLE[kind];
  const failure = AppError.invalidValue(`"${name}" ${known ?? 'is not a readable PDF'}`);
  return known ? failure : new AppError(failure.code, failure.httpStatus, failure.message, { pdf: error instanceof Error ? error.message : String(error) });
}
