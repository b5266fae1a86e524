import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config/index.js';
import { loggerOptions } from './config/logger-options.js';
import { idleCollectionPlugin } from './plugins/idle-collection.js';
import { changeNoticeWaitPlugin } from './plugins/change-notice-wait.js';
import type { Database } from './db/connection.js';
import { openFileService } from './files/file-service.js';
import { documentLimits } from './knowledge/documents/limits.js';
import { setVectorCacheBudget } from './knowledge/store/index.js';
import { SchemaCache } from './shared/schema-cache.js';
import { createAppKeyStrategy } from './auth/app-key-strategy.js';
import { authenticationPlugin } from './plugins/authentication.js';
import { createTokenStrategy } from './auth/token-strategy.js';
import { createOAuthStrategy } from './auth/oauth-strategy.js';
import { consentRoutes, oauthClientRoutes, oauthRoutes } from './modules/oauth/index.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { lenientBooleanKeyword } from './plugins/lenient-boolean.js';
import { lazySchemaCompilers } from './plugins/lazy-schema-compilers.js';
import { openApiPlugin } from './plugins/openapi.js';
import { redisPlugin } from './plugins/redis.js';
import { rateLimitAdmission } from './plugins/rate-limit.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { finiteNumberKeyword, finiteNumbersPlugin } from './plugins/finite-numbers.js';
import { clientErrorHandler, frameworkErrors, MAX_PATH_PARAMETER_LENGTH } from './plugins/framework-errors.js';
import { notFoundPlugin } from './plugins/not-found.js';
import { requestGuardPlugin } from './plugins/request-guard.js';
import { appRoutes } from './modules/apps/index.js';
import { optionSetRoutes } from './modules/option-sets/index.js';
import { regionRoutes } from './modules/regions/index.js';
import { directoryRoutes } from './modules/directory/index.js';
import { healthRoutes } from './modules/health/index.js';
import { RecycleBinSweep, recordLogRoutes, recordRoutes, ruleRoutes } from './modules/records/index.js';
import { contextOf } from './plugins/service-context.js';
import { discussionRoutes } from './modules/discussions/index.js';
import { chartRoutes } from './modules/charts/index.js';
import { customPageRoutes } from './modules/custom-pages/index.js';
import { chatbotRoutes } from './modules/chatbots/index.js';
import { fileRoutes, signedFileRoutes } from './modules/files/index.js';
import { shareLinkRoutes, sharePageRoutes } from './modules/share-links/index.js';
import { apiCsrf, SessionStore, sessionSecretOf, sessionSigner, signInPageRoutes } from './modules/sign-in/index.js';
import { createSessionStrategy } from './auth/session-strategy.js';
import { forgetCachedSchema, IndexBuilder, worksheetRoutes } from './modules/worksheets/index.js';
import { viewRoutes } from './modules/views/index.js';
import { peopleRoutes } from './modules/people/index.js';
import { BackgroundRecompute } from './modules/worksheets/background-recompute.js';
import { PACKAGE_VERSION } from './shared/version.js';
import { roleRoutes } from './modules/roles/index.js';
import { workflowRunRoutes } from './modules/workflow-runs/index.js';
import { createJobWorker } from './workflow/engine.js';
import { nodeServices } from './workflow/node-context.js';
import { workflowDefinitionRoutes } from './modules/workflows/index.js';
import { reconcileTimeTriggers, timeoutSweepJob } from './workflow/index.js';
import { planRecurringJobs, recurringJobHandler } from './jobs/index.js';
import { maintenanceSweepJob } from './jobs/maintenance-sweep.js';
import { runTodos, workflowInstanceRoutes } from './modules/workflow-instances/index.js';
import { notificationMailHandler, notificationRoutes } from './modules/notifications/index.js';
import type { Actor } from './shared/actor.js';
import { indexSourceHandler, ingestDocumentHandler, knowledgeRoutes, reembedHandler, reindexRecordsHandler, retrieve } from './modules/knowledge/index.js';
import { chatModelFor } from './knowledge/chat-model.js';

/** The interface is served under both prefixes: `/v3` (hosted style) and `/api/v3` (private deployment style). */
export const API_PREFIXES = ['/v3', '/api/v3'] as const;

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Overrides of Fastify's logger setting (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Epoch milliseconds now; tests fix it so that `today` and record times are known. */
  clock?: () => number;
  /** Whether the job worker starts with the app when WORKERS > 0 (default true; `tabularium worker --once` drives it itself). */
  startJobs?: boolean;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * Builds the program: cross-cutting plugins first, then every module under each prefix.
 * This file is the table of contents of the server.
 */
export async function buildApp({ config, database, logger, clock, startJobs = true }: BuildOptions): Promise<FastifyInstance> {
  const compilers = lazySchemaCompilers();
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    // A hop count trusts that many proxies nearest to the server (Fastify's types lack the number form).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: compilers.compilersFactory },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false }, plugins: [lenientBooleanKeyword, finiteNumberKeyword] },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('compileAllSchemas', compilers.compileAll);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('clock', clock ?? Date.now);
  const schemaCache = new SchemaCache<unknown>();
  app.decorate('schemaCache', schemaCache);
  const indexes = new IndexBuilder(database.db, database.dialect, app.log, (worksheetId) => forgetCachedSchema(schemaCache, worksheetId));
  app.decorate('indexes', indexes);
  app.decorate('files', await openFileService(config, database.db));
  const recompute = new BackgroundRecompute(database.db, database.dialect, app.log, config.timeZone, (worksheetId) => forgetCachedSchema(schemaCache, worksheetId));
  app.decorate('recompute', recompute);
  app.addHook('onClose', () => recompute.close());
  await recompute.resume();
  app.addHook('onClose', () => indexes.close());
  const recycleBin = new RecycleBinSweep(database.db, config.recycleBinDays, app.clock, (actor) => contextOf(app, actor, app.log));
  app.decorate('recycleBin', recycleBin);
  // The periodic sweeps are recurring jobs: one pending job each over every process, run by a process with workers.
  const sweeps = [maintenanceSweepJob({ db: database.db, log: app.log, intervalMinutes: config.sweepIntervalMinutes }), recycleBin.job, timeoutSweepJob(database.db, { dialect: database.dialect, runTodos }, app.log)];

  setVectorCacheBudget(database.dialect, config.knowledgeVectorCacheBytes);
  const services = nodeServices(config);
  const knowledgeJobs = { db: database.db, contextOf: (actor: Actor) => contextOf(app, actor, app.log) };
  const jobs = createJobWorker({
    database,
    clock: app.clock,
    timeZone: config.timeZone,
    log: app.log,
    contextOf: (actor) => contextOf(app, actor, app.log),
    concurrency: config.workers,
    pollMs: config.workerPollMs,
    leaseMs: config.workerLeaseMs,
    crashAt: config.crashAt,
    services,
    // Registered even without SMTP_URL: mail queued while it was set fails, saying why, instead of waiting forever.
    handlers: [notificationMailHandler({ db: database.db, mailer: services.mailer, publicUrl: config.publicUrl, clock: app.clock, log: app.log }), ...sweeps.map((job) => recurringJobHandler(job, database.db, app.clock)), indexSourceHandler(knowledgeJobs), reindexRecordsHandler(knowledgeJobs), reembedHandler(knowledgeJobs), ingestDocumentHandler({ ...knowledgeJobs, limits: documentLimits(config), files: app.files.store, clock: app.clock })],
  });
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => {
    await planRecurringJobs(database.db, sweeps, app.clock()).catch((error: unknown) => app.log.error({ err: error }, 'planning the sweeps failed'));
  });
  if (config.workers > 0 && startJobs) app.addHook('onReady', () => jobs.start());
  // Schedules and date-field triggers whose job chain was lost (or predates it) are planned again.
  app.addHook('onReady', async () => {
    await reconcileTimeTriggers(database.db, app.clock(), config.timeZone).catch((error: unknown) => app.log.error({ err: error }, 'planning time triggers failed'));
  });
  app.addHook('onClose', () => jobs.close());
  app.addHook('onClose', () => services.mailer?.close());

  const appKeys = createAppKeyStrategy(database.db, config.headerPrefix);
  await app.register(errorHandlerPlugin, { profile: config.apiProfile });
  await app.register(changeNoticeWaitPlugin);
  await app.register(idleCollectionPlugin, { idleMs: config.idleCollectMs, clock: app.clock });
  await app.register(notFoundPlugin);
  await app.register(finiteNumbersPlugin);
  await app.register(requestGuardPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(redisPlugin, { url: config.redisUrl });
  const tokens = createTokenStrategy(database.db, config.headerPrefix, app.clock);
  const oauthGrants = createOAuthStrategy(database.db, config.headerPrefix, app.clock);
  // The signed-in session last: an explicit credential wins over a cookie, and costs nothing more.
  const sessionSecret = await sessionSecretOf(config, database.db);
  const sessions = createSessionStrategy({
    db: database.db,
    sessions: new SessionStore(database.db, app.clock),
    signer: sessionSigner(sessionSecret),
    csrf: apiCsrf(sessionSecret),
    headerPrefix: config.headerPrefix,
    clock: app.clock,
  });
  await app.register(authenticationPlugin, { strategies: [appKeys, tokens, oauthGrants, sessions], admit: rateLimitAdmission(config, app.redis, app.clock) });
  await app.register(openApiPlugin, { publicUrl: config.publicUrl, headerPrefix: config.headerPrefix, version: PACKAGE_VERSION });

  await app.register(healthRoutes);
  await app.register(signedFileRoutes);
  await app.register(sharePageRoutes);
  // The admin API is the organization's, not part of the public interface: outside /v3.
  await app.register(peopleRoutes);
  await app.register(oauthClientRoutes, { onClientChanged: () => oauthGrants.forgetAll() });
  // The consent page lives with the sign-in pages: their sessions, CSRF and error page.
  await app.register(signInPageRoutes, { onTokenRevoked: (tokenId) => tokens.forgetToken(tokenId), morePages: [consentRoutes] });
  await app.register(oauthRoutes, { onRevoked: () => oauthGrants.forgetAll() });
  for (const prefix of API_PREFIXES) {
    await app.register(appRoutes, { prefix, onAppDeleted: (appId) => appKeys.forgetApp(appId) });
    await app.register(optionSetRoutes, { prefix });
    await app.register(worksheetRoutes, { prefix });
    await app.register(viewRoutes, { prefix });
    await app.register(recordRoutes, { prefix });
    await app.register(recordLogRoutes, { prefix });
    await app.register(ruleRoutes, { prefix });
    await app.register(discussionRoutes, { prefix });
    await app.register(chartRoutes, { prefix });
    await app.register(customPageRoutes, { prefix });
    await app.register(chatbotRoutes, { prefix, answers: { chatModel: () => chatModelFor(config), retrieve } });
    await app.register(fileRoutes, { prefix });
    await app.register(shareLinkRoutes, { prefix });
    await app.register(roleRoutes, { prefix });
    await app.register(regionRoutes, { prefix });
    await app.register(directoryRoutes, { prefix });
    await app.register(workflowDefinitionRoutes, { prefix });
    await app.register(workflowRunRoutes, { prefix });
    await app.register(workflowInstanceRoutes, { prefix });
    await app.register(notificationRoutes, { prefix });
    await app.register(knowledgeRoutes, { prefix });
  }
  return app;
}
