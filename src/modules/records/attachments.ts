import { createHash } from 'node:crypto';
import type { Executor } from '../../db/connection.js';
import type { FieldMeta } from '../../fields/field-type.js';
import type { AttachedFile, AttachmentEdit, PendingUpload } from '../../fields/types/attachment.js';
import { fetchRemote } from '../../files/remote-fetch.js';
import { sniffContentType } from '../../files/sniff.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { WorksheetSchema } from '../worksheets/index.js';

/**
 * Attachment values in the record writer. Before the write's transaction, every file to add is
 * fetched or decoded, checked against the limits, sniffed and put in the file store (nothing slow
 * happens inside the transaction). Inside it, each record's value is settled (files kept, added,
 * removed) and the `files` rows follow it. After it commits, bytes that no file refers to any more
 * are removed from the store; if it fails, the bytes it put there are.
 */

/** A file put in the store for a write, not yet any record's. */
export interface Uploaded {
  name: string;
  size: number;
  mimeType: string;
  sha256: string;
  storageKey: string;
}

/** The attachment fields written in these values (their values are edits to resolve). */
export function attachmentEditsOf(schema: WorksheetSchema, values: Map<string, unknown>): FieldMeta[] {
  return [...values.keys()].map((id) => schema.byKey.get(id)!).filter((field) => field.fieldType.edits === 'files');
}

/** Bytes of files an application keeps now (the quota's measure). */
async function appBytes(db: Executor, appId: string): Promise<number> {
  const row = await db.selectFrom('files').select((eb) => eb.fn.sum<number>('size').as('bytes')).where('app_id', '=', appId).executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/**
 * Fetches or decodes every file the written values add, checks sizes (100007) and the
 * application's quota (430017), and puts the bytes in the store. Returns what was stored, by the
 * pending upload it came from.
 */
export async function uploadAttachments(ctx: ServiceContext, schema: WorksheetSchema, rows: Array<Map<string, unknown>>): Promise<Map<PendingUpload, Uploaded>> {
  const pending: FileToUpload[] = [];
  if (!schema.fields.some((field) => field.fieldType.edits === 'files')) return new Map();
  for (const values of rows) {
    for (const field of attachmentEditsOf(schema, values)) {
      for (const upload of (values.get(field.id) as AttachmentEdit).uploads) pending.push({ upload, label: `field "${field.name}" file "${upload.name}"` });
    }
  }
  return uploadFiles(ctx, schema.appId, pending);
}

/** A file to put in the store, and how messages name it. */
export interface FileToUpload {
  upload: PendingUpload;
  label: string;
}

/**
 * Fetches or decodes files for an application (record attachments, a discussion's files), checks
 * sizes (100007) and the application's quota (430017), and puts the bytes in the store. Returns
 * what was stored, by the pending upload it came from; on failure nothing stays in the store.
 */
export async function uploadFiles(ctx: ServiceContext, appId: string, pending: FileToUpload[]): Promise<Map<PendingUpload, Uploaded>> {
  const uploaded = new Map<PendingUpload, Uploaded>();
  if (pending.length === 0) return uploaded;
  const { limits, store } = ctx.files;
  const fetched: Array<{ upload: PendingUpload; bytes: Buffer }> = [];
  for (const { upload, label } of pending) {
    const bytes = upload.source.kind === 'data' ? upload.source.bytes : (await fetchRemote(upload.source.url, limits.fetch, label)).bytes;
    if (bytes.length > limits.maxBytes) throw new AppError(ErrorCode.AttachmentLimitExceeded, 400, `${label}: ${bytes.length} bytes, more than the ${limits.maxBytes} a file may have`);
    fetched.push({ upload, bytes });
  }
  const adding = fetched.reduce((sum, f) => sum + f.bytes.length, 0);
  const used = await appBytes(ctx.db, appId);
  if (used + adding > limits.appQuotaBytes) {
    throw new AppError(ErrorCode.AttachmentQuotaExceeded, 400, `the application's files would take ${used + adding} bytes, more than its quota of ${limits.appQuotaBytes}`);
  }
  try {
    for (const { upload, bytes } of fetched) {
      const storageKey = `${appId}/${newObjectId()}`;
      await store.put(storageKey, bytes);
      uploaded.set(upload, { name: upload.name, size: bytes.length, mimeType: await sniffContentType(bytes), sha256: createHash('sha256').update(bytes).digest('hex'), storageKey });
    }
  } catch (error) {
    await forgetUploads(ctx, uploaded);
    throw error;
  }
  return uploaded;
}

/** Removes the bytes a failed write put in the store. */
export async function forgetUploads(ctx: ServiceContext, uploaded: Map<PendingUpload, Uploaded>): Promise<void> {
  for (const file of uploaded.values()) await ctx.files.store.remove(file.storageKey).catch(() => undefined);
}

/**
 * The files a record's attachment field holds after a write, inside the write's transaction: a
 * replace keeps the listed files the record had and adds the uploads, an append adds them to all it
 * had. Writes the `files` rows of added files and deletes those of removed ones; returns the value
 * and the storage keys of removed files (removed from the store after commit when nothing refers to them).
 */
export async function settleAttachments(
  trx: Executor,
  ctx: ServiceContext,
  schema: WorksheetSchema,
  field: FieldMeta,
  rowId: string,
  edit: AttachmentEdit,
  current: AttachedFile[],
  uploaded: Map<PendingUpload, Uploaded>,
): Promise<{ files: AttachedFile[]; removedKeys: string[] }> {
  const label = `field "${field.name}"`;
  for (const id of edit.keep) if (!current.some((file) => file.id === id)) throw AppError.invalidValue(`${label}: record "${rowId}" has no file "${id}" to keep`);
  const kept = edit.mode === 'append' ? current : current.filter((file) => edit.keep.includes(file.id));
  const added = edit.uploads.map((upload) => ({ id: newObjectId(), stored: uploaded.get(upload)! }));
  const files = [...kept, ...added.map(({ id, stored }) => ({ id, name: stored.name, size: stored.size, mimeType: stored.mimeType }))];
  if (files.length > ctx.files.limits.perRecord) {
    throw new AppError(ErrorCode.AttachmentLimitExceeded, 400, `${label}: a record holds at most ${ctx.files.limits.perRecord} files here, this write would give it ${files.length}`);
  }
  await insertFileRows(trx, ctx, { appId: schema.appId, worksheetId: schema.id, fieldId: field.id, rowId }, added);
  const removed = current.filter((file) => !kept.includes(file)).map((file) => file.id);
  return { files, removedKeys: await deleteFileRows(trx, removed) };
}

/** Where stored files belong: a record's attachment field, or a discussion (`fieldId` `discussion:<id>`). */
export interface FileOwner {
  appId: string;
  worksheetId: string;
  fieldId: string;
  rowId: string;
}

/** Writes the `files` rows of files put in the store for `owner`, inside the write's transaction. */
export async function insertFileRows(trx: Executor, ctx: ServiceContext, owner: FileOwner, added: Array<{ id: string; stored: Uploaded }>): Promise<void> {
  if (added.length === 0) return;
  const now = ctx.now();
  await trx
    .insertInto('files')
    .values(
      added.map(({ id, stored }) => ({
        id,
        app_id: owner.appId,
        worksheet_id: owner.worksheetId,
        field_id: owner.fieldId,
        row_id: owner.rowId,
        name: stored.name,
        size: stored.size,
        mime_type: stored.mimeType,
        sha256: stored.sha256,
        storage_key: stored.storageKey,
        created_by: ctx.actor.accountId,
        created_at: now,
      })),
    )
    .execute();
}

/** Deletes `files` rows by id; returns their storage keys. */
async function deleteFileRows(trx: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await trx.deleteFrom('files').where('id', 'in', ids).returning('storage_key').execute();
  return rows.map((row) => row.storage_key);
}

/** Deletes the `files` rows of records deleted for good; returns their storage keys. */
export async function deleteFilesOfRecords(trx: Executor, rowIds: string[]): Promise<string[]> {
  if (rowIds.length === 0) return [];
  const rows = await trx.deleteFrom('files').where('row_id', 'in', rowIds).returning('storage_key').execute();
  return rows.map((row) => row.storage_key);
}

/** Deletes the `files` rows a record's discussion (or another owner within the record) holds; returns their storage keys. */
export async function deleteFilesOfOwner(trx: Executor, rowId: string, fieldId: string): Promise<string[]> {
  const rows = await trx.deleteFrom('files').where('row_id', '=', rowId).where('field_id', '=', fieldId).returning('storage_key').execute();
  return rows.map((row) => row.storage_key);
}

/** After commit: removes from the store the bytes no file row refers to any more. */
export async function removeUnreferenced(ctx: ServiceContext, keys: string[]): Promise<void> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return;
  const still = new Set((await ctx.db.selectFrom('files').select('storage_key').where('storage_key', 'in', unique).execute()).map((row) => row.storage_key));
  for (const key of unique) if (!still.has(key)) await ctx.files.store.remove(key).catch((error: unknown) => ctx.log.warn({ err: error, key }, 'could not remove a file from the store'));
}
