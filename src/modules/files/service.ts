import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { Executor } from '../../db/connection.js';
import type { FileService } from '../../files/file-service.js';

/** A file to send: its bytes and how to name and type them. */
export interface Download {
  bytes: Buffer;
  name: string;
  mimeType: string;
}

async function send(db: Executor, files: FileService, fileId: string, appId: string | null): Promise<Download> {
  const row = await db.selectFrom('files').select(['app_id', 'name', 'mime_type', 'storage_key']).where('id', '=', fileId).executeTakeFirst();
  // Another application's file is answered exactly as a missing one.
  if (!row || (appId !== null && row.app_id !== appId)) throw AppError.notFound(`file "${fileId}" does not exist`);
  const bytes = await files.store.get(row.storage_key);
  if (!bytes) throw AppError.notFound(`file "${fileId}" is missing from the file store`);
  return { bytes, name: row.name, mimeType: row.mime_type };
}

/** A file of the caller's application (an authenticated download). */
export function downloadForApp(db: Executor, files: FileService, fileId: string, appId: string): Promise<Download> {
  return send(db, files, fileId, appId);
}

/** A file by a signed link: the signature and expiry must hold (10005 otherwise). */
export function downloadByLink(db: Executor, files: FileService, fileId: string, expires: number, signature: string, now: number): Promise<Download> {
  if (!files.links.verify(fileId, expires, signature, now)) throw new AppError(ErrorCode.PermissionDenied, 403, 'this download link is not valid or has expired');
  return send(db, files, fileId, null);
}
