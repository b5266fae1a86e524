import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../shared/actor.js';
import type { Config } from '../config/index.js';
import type { Database } from '../db/connection.js';
import { SchemaCache } from '../shared/schema-cache.js';
import type { IndexBuilder } from '../modules/worksheets/index.js';
import type { ServiceContext } from '../shared/service-context.js';
import { actorOf } from './authentication.js';
import type { FileService } from '../files/file-service.js';
import type { BackgroundRecompute } from '../modules/worksheets/background-recompute.js';
import type { RecycleBinSweep } from '../modules/records/index.js';
import type { JobWorker } from '../jobs/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    schemaCache: SchemaCache<unknown>;
    /** Builds the indexes reads ask for, in the background. */
    indexes: IndexBuilder;
    /** Epoch milliseconds now (Date.now unless a test fixed it). */
    clock: () => number;
    /** Attached files: store, download links, limits. */
    files: FileService;
    /** Computes fields of large worksheets in the background. */
    recompute: BackgroundRecompute;
    /** Removes records that have been in the recycle bin longer than RECYCLE_BIN_DAYS. */
    recycleBin: RecycleBinSweep;
    /** Runs background jobs (workflow runs) of this process (`src/jobs/`). */
    jobs: JobWorker;
  }
}

/** The context a route hands to its service: the authenticated actor and the app's resources. */
export function serviceContext(request: FastifyRequest, write?: { triggerWorkflow?: boolean }): ServiceContext {
  const ctx = contextOf(request.server, actorOf(request), request.log);
  // A record write asking not to trigger workflows (`triggerWorkflow: false`) says so to the writer.
  if (write?.triggerWorkflow === false) ctx.origin = { type: 1, triggerWorkflow: false };
  return ctx;
}

/**
 * A service context acting as `actor`: for work the server does on its own (background jobs), and
 * for public routes without credentials (a share link's page reads as a stand-in of its application).
 */
export function contextOf(app: FastifyInstance, actor: Actor, log: FastifyBaseLogger): ServiceContext {
  return {
    actor,
    db: app.database.db,
    dialect: app.database.dialect,
    reader: app.database.reader,
    now: app.clock,
    timeZone: app.config.timeZone,
    profile: app.config.apiProfile,
    log,
    schemas: app.schemaCache,
    indexes: app.indexes,
    files: app.files,
    recompute: { start: (job) => app.recompute.start(job), inlineMaxRows: app.config.computeInlineMaxRows },
    draftLimit: app.config.draftLimit,
    notificationMail: app.config.notificationMail,
    embeddings: app.config.embeddings,
    documentMaxBytes: app.config.knowledgeDocumentMaxBytes,
  };
}
