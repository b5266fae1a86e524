import type { NewJob } from '../jobs/index.js';

/**
 * The full indexing of a worksheet source (run by `modules/knowledge/index-job.ts`): queued when a
 * source is made or its fields change, here so that the worksheets module can queue it when a
 * field a source indexes is removed.
 */
export const INDEX_SOURCE_JOB = 'knowledge.index-source';

/** The job that indexes a source's records. */
export function indexSourceJob(sourceId: string): NewJob {
  return { kind: INDEX_SOURCE_JOB, payload: { sourceId }, maxAttempts: 3 };
}
