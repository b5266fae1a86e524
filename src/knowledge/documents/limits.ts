import type { Config } from '../../config/index.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';

/**
 * How large a document a knowledge base takes: its bytes (KNOWLEDGE_DOCUMENT_MAX_SIZE), the text
 * read from it (as many characters as bytes are allowed: a compressed PDF can hold more text than
 * its size suggests), and a PDF's pages.
 */
export interface DocumentLimits {
  maxBytes: number;
  maxChars: number;
  maxPages: number;
}

/** The most pages of one PDF: a bound on the time one ingestion job spends reading. */
export const MAX_PDF_PAGES = 5000;

export function documentLimits(config: Pick<Config, 'knowledgeDocumentMaxBytes'>): DocumentLimits {
  return { maxBytes: config.knowledgeDocumentMaxBytes, maxChars: config.knowledgeDocumentMaxBytes, maxPages: MAX_PDF_PAGES };
}

/**
 * A document over a limit: error_code 100007 (attachment limit exceeded) with HTTP 400, as an
 * attachment that is too large is answered, the document named.
 * @example throw tooLarge('report.pdf', '25165824 bytes, more than the 20971520 a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)')
 */
export function tooLarge(name: string, what: string): AppError {
  return new AppError(ErrorCode.AttachmentLimitExceeded, 400, `"${name}": ${what}`);
}

/**
 * Refuses a document of more bytes than `maxBytes`, before anything is read or kept.
 * @example refuseOversized('report.pdf', bytes.length, limits.maxBytes)
 */
export function refuseOversized(name: string, size: number, maxBytes: number): void {
  if (size > maxBytes) throw tooLarge(name, `${size} bytes, more than the ${maxBytes} a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)`);
}
