import type { NewJob } from '../jobs/index.js';

/**
 * The job that re-indexes records after a write: the record writer's hook enqueues it in the
 * write's transaction (`modules/records/knowledge-reindex-hook.ts`), the knowledge module runs it
 * (`modules/knowledge/reindex-job.ts`). It names records, not their text: the handler reads them as
 * they are when it runs, so jobs for the same records may run in any order.
 */
export const REINDEX_JOB = 'knowledge.reindex';

export interface ReindexPayload {
  worksheetId: string;
  rowIds: string[];
}

/** One job for the records of one worksheet one write changed. */
export function reindexJob(worksheetId: string, rowIds: readonly string[]): NewJob {
  return { kind: REINDEX_JOB, payload: { worksheetId, rowIds: [...rowIds] } satisfies ReindexPayload };
}
