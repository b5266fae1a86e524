import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { refuseUnreadableType } from '../../knowledge/documents/media-type.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { DocumentBytes } from './document-service.js';

/**
 * A document uploaded as `multipart/form-data` (`POST …/documents`): a part `file` (the document;
 * its media type from the part's Content-Type, else its file name, else its bytes) and an optional
 * part `title`. The file is read as it streams in: a declared type no parser reads is refused at
 * the part's headers, before its bytes; a file over `maxBytes` is refused at the byte that crosses
 * the limit, where reading stops (busboy is asked for no more than `maxBytes`). A refusal before the
 * body's end closes the connection after the answer, because the rest of the body is not read.
 */

/** The parts an upload may have and the most a title part may hold (a title is at most 300 characters, up to 4 bytes each). */
const FORM_LIMITS = { files: 1, fields: 4, parts: 6, fieldSize: 1200, headerPairs: 32 };

const KNOWN = 'an upload sends the parts file (the document) and title';

/**
 * @example const doc = await readDocumentUpload(request, reply, config.knowledgeDocumentMaxBytes) // { bytes, name: 'guide.md', declaredType: 'text/markdown', originUrl: null }
 */
export async function readDocumentUpload(request: FastifyRequest, reply: FastifyReply, maxBytes: number): Promise<DocumentBytes> {
  try {
    return await readParts(request, maxBytes);
  } catch (error) {
    // The rest of a body left unread would be taken for the next request on this connection.
    if (!request.raw.complete) reply.header('connection', 'close');
    throw refusalOf(error);
  }
}

async function readParts(request: FastifyRequest, maxBytes: number): Promise<DocumentBytes> {
  let file: { bytes: Buffer; name: string; declaredType: string } | undefined;
  let title: string | undefined;
  for await (const part of request.parts({ limits: { ...FORM_LIMITS, fileSize: maxBytes } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw AppError.invalidParameters(`body.${part.fieldname.slice(0, 60)} is not a known parameter: ${KNOWN}`);
      const name = part.filename?.trim() || 'file';
      refuseUnreadableType({ name, declaredType: part.mimetype });
      file = { bytes: await fileBytes(part, name, maxBytes), name, declaredType: part.mimetype };
    } else {
      if (part.fieldname !== 'title') throw AppError.invalidParameters(`body.${part.fieldname.slice(0, 60)} is not a known parameter: ${KNOWN}`);
      if (part.valueTruncated) throw AppError.invalidValue('title: at most 300 characters');
      if (typeof part.value !== 'string') throw AppError.invalidValue('title: text is expected');
      title = part.value;
    }
  }
  if (!file) throw AppError.invalidParameters(`file is required: the document, as the part named file of the multipart/form-data body`);
  if (file.bytes.length === 0) throw AppError.invalidValue(`file "${file.name}": the document is empty`);
  return { ...file, originUrl: null, ...(title === undefined ? {} : { title }) };
}

/** The file's bytes, at most `maxBytes`: past that, busboy says `limit` and the stream is torn down at once. */
async function fileBytes(part: MultipartFile, name: string, maxBytes: number): Promise<Buffer> {
  const tooLarge = new AppError(ErrorCode.AttachmentLimitExceeded, 400, `file "${name}": larger than the ${maxBytes} bytes a document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE)`);
  // busboy may have crossed the limit already, within the chunk that also held the part's headers.
  const refuse = () => part.file.destroy(tooLarge);
  if (part.file.truncated) refuse();
  else part.file.once('limit', refuse);
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  if (part.file.truncated) throw tooLarge;
  return Buffer.concat(chunks);
}

/** The multipart reader's own errors, said as the envelope says bad input. */
function refusalOf(error: unknown): unknown {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return AppError.invalidParameters('file: one document per request (a single part named file)');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return AppError.invalidParameters(`body: too many parts; ${KNOWN}`);
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return AppError.invalidValue('title: text is expected');
    case 'FST_PROTO_VIOLATION':
      return AppError.invalidParameters(`body: a part's name is not allowed; ${KNOWN}`);
  }
  return AppError.invalidParameters(`body: the multipart/form-data body cannot be read: ${error instanceof Error ? error.message : String(error)}`);
}
