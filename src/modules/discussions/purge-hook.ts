import type { RecordHook } from '../records/writer.js';
import { deleteDiscussionsOfRecords } from './repository.js';

/**
 * A record hook: records deleted for good take their discussions with them, in the write's
 * transaction. Their files are rows of `files` under the record's id, which the writer deletes
 * with the record's own files and removes from the store after commit. A record moved to the
 * recycle bin keeps its discussions, and has them again when restored.
 *
 * This file imports only the discussions repository (and a type), so that the record writer can
 * list the hook without loading the discussions routes, which use the records module.
 */
export const purgeDiscussions: RecordHook = async (changes, { trx, schema }) => {
  const purged = changes.filter((change) => change.kind === 'purge').map((change) => change.rowId);
  await deleteDiscussionsOfRecords(trx, schema.id, purged);
};
