import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/** A file a record's attachment field holds, as stored in its column (the bytes are in the file store). */
export interface AttachedFile {
  id: string;
  name: string;
  size: number;
  mimeType: string;
}

/** A file to add: decoded from a `data:` URL already, or to be fetched from an http(s) URL before the write. */
export interface PendingUpload {
  name: string;
  source: { kind: 'data'; bytes: Buffer } | { kind: 'url'; url: string };
}

/**
 * An attachment value as written: what the record writer turns into files before its transaction
 * (uploads) and inside it (`replace` keeps the listed files of the record and adds the uploads;
 * `append` adds the uploads to the files the record has).
 */
export interface AttachmentEdit {
  mode: 'replace' | 'append';
  /** Ids of files the record has that a `replace` keeps. */
  keep: string[];
  uploads: PendingUpload[];
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(;[\w-]+=[\w.+-]+)*;base64,([A-Za-z0-9+/=\s]*)$/;
const MAX_NAME = 255;

/** A file name from a URL's last path segment, or "file". */
function nameFromUrl(url: string): string {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return last || 'file';
  } catch {
    return 'file';
  }
}

function isAttachmentEdit(value: unknown): value is AttachmentEdit {
  return typeof value === 'object' && value !== null && 'uploads' in value;
}

/**
 * Files as written (`[{name, url}]`, one item alone, `{id}` of a file to keep), as an edit in `mode`;
 * 10002 naming `label` for anything else. Attachment values and a discussion's attachments are read by it.
 * @example readFileItems([{ name: 'a.txt', url: 'data:text/plain;base64,YQ==' }], 'attachments', 'replace')
 */
export function readFileItems(value: unknown, label: string, mode: AttachmentEdit['mode']): AttachmentEdit {
  const items = Array.isArray(value) ? value : [value];
  const edit: AttachmentEdit = { mode, keep: [], uploads: [] };
  for (const [i, item] of items.entries()) {
    const where = items.length > 1 ? `[${i}]` : '';
    if (typeof item !== 'object' || item === null) throw badFieldValue(label, `expected files as {name, url}${where ? ` at ${where}` : ''}, got ${show(item)}`);
    const { id, fileId, name, url } = item as Record<string, unknown>;
    if (url === undefined && (typeof id === 'string' || typeof fileId === 'string')) {
      edit.keep.push(String(id ?? fileId));
      continue;
    }
    if (typeof url !== 'string' || url.trim() === '') throw badFieldValue(label, `file${where}: url is required (an http(s) address or a data: base64 payload)`);
    if (name !== undefined && (typeof name !== 'string' || name.length > MAX_NAME)) throw badFieldValue(label, `file${where}: name must be text of at most ${MAX_NAME} characters`);
    const data = DATA_URL.exec(url.trim());
    if (data) {
      edit.uploads.push({ name: (name as string | undefined)?.trim() || 'file', source: { kind: 'data', bytes: Buffer.from(data[3].replace(/\s/g, ''), 'base64') } });
    } else if (/^https?:\/\//i.test(url.trim())) {
      edit.uploads.push({ name: (name as string | undefined)?.trim() || nameFromUrl(url.trim()), source: { kind: 'url', url: url.trim() } });
    } else {
      throw badFieldValue(label, `file${where}: url must be an http(s) address or a data:…;base64, payload, got ${show(url)}`);
    }
  }
  return edit;
}

/**
 * 14 Attachment: files. Written as `[{name, url}]` where `url` is an http(s) address (fetched by the
 * server) or a `data:` base64 payload, and `{id}` for a file the record already has (kept by an
 * overwrite); the item's `type` 0 (the default) overwrites, 1 appends. Read as `[{id, name, size,
 * mimeType, downloadUrl}]`, the link signed and expiring. Filters: isempty / isnotempty.
 */
export const attachment = defineFieldType({
  code: '14',
  name: 'Attachment',
  valueKind: 'json',
  column: 'json',
  edits: 'files',
  availability: 'ready',
  storedWhenEmpty: { mode: 'replace', keep: [], uploads: [] } satisfies AttachmentEdit,
  write: (value, _field, ctx) => readFileItems(value, ctx.label, ctx.mode === 1 ? 'append' : 'replace'),
  read(stored, _field, refs) {
    if (stored === null || !Array.isArray(stored)) return [];
    return (stored as AttachedFile[]).map((file) => ({ id: file.id, name: file.name, size: file.size, mimeType: file.mimeType, downloadUrl: refs.fileUrl?.(file.id) ?? '' }));
  },
  isEmpty: (stored) => {
    if (stored === null) return true;
    if (isAttachmentEdit(stored)) return stored.keep.length === 0 && stored.uploads.length === 0;
    return Array.isArray(stored) && stored.length === 0;
  },
});
