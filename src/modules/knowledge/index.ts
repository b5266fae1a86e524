/** Knowledge bases: their routes, the search chatbots share, and what keeps record passages current. */
export { knowledgeRoutes } from './routes.js';
export { retrieve } from './search-service.js';
/** The record writer's hook re-indexes written records with this, in the write's transaction. */
export { reindexRecords } from './indexing.js';
export { indexSourceHandler, INDEX_SOURCE_JOB } from './index-job.js';
/** An application's deletion takes its knowledge bases with it. */
export { deleteKnowledgeOfApp } from './service.js';
