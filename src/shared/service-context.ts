import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import type { RowReader } from '../db/row-reader.js';
import type { Actor } from './actor.js';
import type { ApiProfile } from './api-profile.js';
import type { SchemaCache } from './schema-cache.js';
import type { FileService } from '../files/file-service.js';
import type { ChangeSource } from './change-source.js';
import type { EmbeddingsEndpoint } from '../config/model-endpoints.js';

/**
 * What every service function is given instead of the HTTP request: who acts, where the data
 * is, the time and the log.
 * @example await recordsService.create(ctx, worksheetId, body)
 */
export interface ServiceContext {
  actor: Actor;
  db: Executor;
  dialect: SqlDialect;
  /** Reads of committed rows outside any transaction: record gets and lists (`db/row-reader.ts`). */
  reader: RowReader;
  /** Epoch milliseconds now; a test may fix it. */
  now: () => number;
  timeZone: string;
  /** The wire profile (`API_PROFILE`): which shape reads answer in. */
  profile: ApiProfile;
  log: FastifyBaseLogger;
  /** Parsed worksheet schemas of this app instance. */
  schemas: SchemaCache<unknown>;
  /** Where reads ask for the indexes they would like; built in the background, never by the read. */
  indexes: { request(index: { worksheetId: string; columns: { key: string[]; include: string[] } }): void; settle(worksheetId: string): Promise<void> };
  /** Attached files: store, download links, limits. */
  files: FileService;
  /** Computes fields of large worksheets in the background; and how large is large. */
  recompute: { start(job: { appId: string; worksheetId: string; fieldIds: string[] }): void; inlineMaxRows: number };
  /** Most drafts one creator keeps in one worksheet's draft box (`DRAFT_LIMIT`). */
  draftLimit: number;
  /** Whether notifications are also mailed (SMTP_URL set, NOTIFY_MAIL not false): `notify` then queues their mail. */
  notificationMail: boolean;
  /** Where record writes made through this context come from (the API when absent): a workflow's writes, or a write asking not to trigger workflows. */
  origin?: ChangeSource;
  /** The OpenAI-compatible embeddings service (EMBEDDINGS_URL) knowledge bases may use; null or absent: the built-in embedder only. */
  embeddings?: EmbeddingsEndpoint | null;
  /** Most bytes one knowledge base document may have (KNOWLEDGE_DOCUMENT_MAX_SIZE): refused when it arrives; absent: only when its job reads it. */
  documentMaxBytes?: number;
}
