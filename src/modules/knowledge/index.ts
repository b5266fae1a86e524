/** Knowledge bases: their routes, the search chatbots share, and what keeps record passages current. */
export { knowledgeRoutes } from './routes.js';
export { retrieve } from './search-service.js';
export { indexSourceHandler } from './index-job.js';
export { INDEX_SOURCE_JOB } from '../../knowledge/index-source-job.js';
/** Runs the `knowledge.reindex` jobs the record writer's hook enqueues in each write's transaction. */
export { reindexRecordsHandler } from './reindex-job.js';
/** An application's deletion takes its knowledge bases with it. */
export { deleteKnowledgeOfApp } from './service.js';
export { ingestDocumentHandler, INGEST_DOCUMENT_JOB } from './document-job.js';
/** Re-embeds a base whose embedder was changed. */
export { reembedHandler, REEMBED_JOB } from './reembed-job.js';
