import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config/index.js';
import type { MetaSchema } from '../db/schema.js';
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

const LINK_KEY = 'download-links';

/** The key that signs download links: made once, kept in the database, the same for every process. */
async function linkKey(db: Kysely<MetaSchema>): Promise<Buffer> {
  await db.insertInto('server_secrets').values({ name: LINK_KEY, value: randomBytes(32).toString('hex') }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', LINK_KEY).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}

export async function openFileService(config: Config, db: Kysely<MetaSchema>): Promise<FileService> {
  return {
    store: new LocalDiskStore(config.filesDir),
    links: new DownloadLinks(await linkKey(db), config.publicUrl, config.downloadLinkSeconds),
    limits: {
      maxBytes: config.attachmentMaxBytes,
      perRecord: config.attachmentsPerRecord,
      appQuotaBytes: config.appFileQuotaBytes,
      fetch: { timeoutMs: config.fetchTimeoutMs, maxBytes: config.attachmentMaxBytes, allowPrivate: config.fetchPrivateAddresses },
    },
  };
}
