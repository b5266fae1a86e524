import type { Kysely } from 'kysely';
import type { Config } from '../config/index.js';
import type { MetaSchema } from '../db/schema.js';
import { serverSecret } from '../db/server-secrets.js';
import { DownloadLinks } from './download-links.js';
import { LocalDiskStore, type FileStore } from './file-store.js';
import type { FetchRules } from './remote-fetch.js';

/** What attachments may be: per file, per record's field, per application, and how URLs are fetched. */
export interface FileLimits {
  maxBytes: number;
  perRecord: number;
  appQuotaBytes: number;
  fetch: FetchRules;
}

/** Attached files: where their bytes are kept, how download links are signed, and the limits. */
export interface FileService {
  store: FileStore;
  links: DownloadLinks;
  limits: FileLimits;
}

export async function openFileService(config: Config, db: Kysely<MetaSchema>): Promise<FileService> {
  return {
    store: new LocalDiskStore(config.filesDir),
    links: new DownloadLinks(await serverSecret(db, 'download-links'), config.publicUrl, config.downloadLinkSeconds),
    limits: {
      maxBytes: config.attachmentMaxBytes,
      perRecord: config.attachmentsPerRecord,
      appQuotaBytes: config.appFileQuotaBytes,
      fetch: { timeoutMs: config.fetchTimeoutMs, maxBytes: config.attachmentMaxBytes, allowPrivate: config.fetchPrivateAddresses },
    },
  };
}
