import { AppError } from '../../shared/app-error.js';
import type { DocumentMediaType } from './document.js';

/**
 * Which parser reads a document, from what it is (its bytes), what the sender called it (the
 * declared media type) and its file name, in that order of trust:
 * 1. the bytes: `%PDF-` within the first 1,024 bytes (where PDF readers look for it) is a PDF,
 *    whatever was declared; NUL bytes in the first 8 KiB mean a binary file we cannot read;
 * 2. a declared Markdown or HTML type (`text/markdown`, `text/x-markdown`, `text/html`,
 *    `application/xhtml+xml`);
 * 3. the file name's extension (`.md`, `.markdown`, `.html`, `.htm`, `.xhtml`, `.txt`), because
 *    browsers and curl declare Markdown as `text/plain` or `application/octet-stream`;
 * 4. a declared `text/plain`;
 * 5. text that starts like an HTML page (`<!doctype html`, `<html`) is HTML; other text is plain.
 * A document declared or named PDF that is not one, and a binary file, are refused with an error
 * naming the document.
 */

export interface DocumentIdentity {
  /** The file name or URL, as errors name the document. */
  name: string;
  /** The Content-Type the sender gave, if any (parameters such as charset are ignored here). */
  declaredType?: string | null;
}

const DECLARED: Record<string, DocumentMediaType> = {
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/md': 'text/markdown',
  'text/html': 'text/html',
  'application/xhtml+xml': 'text/html',
  'text/plain': 'text/plain',
  'application/pdf': 'application/pdf',
};

const EXTENSIONS: Record<string, DocumentMediaType> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  mdown: 'text/markdown',
  mkd: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'text/html',
  txt: 'text/plain',
  text: 'text/plain',
  pdf: 'application/pdf',
};

/** Whether `bytes` start like a PDF file (the header may follow up to 1,024 bytes of anything). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).includes('%PDF-', 0, 'latin1');
}

/** Text has no NUL bytes; UTF-16 (which has) is recognised by its byte order mark. */
function looksBinary(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  return bytes.subarray(0, 8192).includes(0);
}

/** Declared types that say nothing of what a file is: its name and bytes decide. */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/binary', 'application/x-download', 'application/force-download']);

/**
 * Refuses, before any byte is read, a document whose declared type is one no parser reads
 * (`image/png`, `application/zip`, a word processor's file), unless its name has an extension
 * of a document type. A generic or missing type and any `text/*` type pass: the bytes decide
 * (`documentMediaType`). 10002, naming the document, its type and what is accepted.
 * @example refuseUnreadableType({ name: 'logo.png', declaredType: 'image/png' }) // throws
 */
export function refuseUnreadableType(identity: DocumentIdentity): void {
  const declared = (identity.declaredType ?? '').split(';')[0]!.trim().toLowerCase();
  if (GENERIC.has(declared) || declared.startsWith('text/') || DECLARED[declared] || EXTENSIONS[extensionOf(identity.name)]) return;
  throw AppError.invalidValue(`"${identity.name}" is ${declared.slice(0, 100)}, which a knowledge base cannot read: send text (text/plain), Markdown (text/markdown), HTML (text/html) or PDF (application/pdf)`);
}

function extensionOf(name: string): string {
  const path = name.split(/[?#]/)[0]!;
  const match = /\.([A-Za-z0-9]+)$/.exec(path);
  return match ? match[1]!.toLowerCase() : '';
}

/**
 * @example documentMediaType({ name: 'README.md', declaredType: 'application/octet-stream' }, bytes) // 'text/markdown'
 */
export function documentMediaType(identity: DocumentIdentity, bytes: Uint8Array): DocumentMediaType {
  const declaredRaw = (identity.declaredType ?? '').split(';')[0]!.trim().toLowerCase();
  const declared = DECLARED[declaredRaw];
  const byName = EXTENSIONS[extensionOf(identity.name)];
  if (looksLikePdf(bytes)) return 'application/pdf';
  if (declared === 'application/pdf' || (byName === 'application/pdf' && !declared)) {
    throw AppError.invalidValue(`"${identity.name}" is ${declared ? 'declared as application/pdf' : 'named .pdf'} but is not a PDF (it does not start with %PDF-)`);
  }
  if (looksBinary(bytes)) {
    throw AppError.invalidValue(`"${identity.name}" is not a text, Markdown, HTML or PDF document${declaredRaw ? ` (declared as ${declaredRaw})` : ''}: its bytes are binary`);
  }
  if (declared === 'text/markdown' || declared === 'text/html') return declared;
  if (byName && byName !== 'application/pdf') return byName;
  if (declared === 'text/plain') return 'text/plain';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'text/html';
  return 'text/plain';
}
