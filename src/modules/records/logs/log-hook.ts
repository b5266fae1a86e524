import type { RecordHook } from '../writer.js';
import { logEntriesOf } from './log-entries.js';
import { deleteLogsOfRecords, insertLogEntries } from './log-repository.js';

/**
 * The record log as a writer hook: each write's changes become entries in its own transaction, so a
 * change and its entry commit or roll back together. Records removed for good take their entries
 * with them, whether or not the worksheet logs changes now.
 */
export const logRecordChanges: RecordHook = async (changes, { trx, dialect, schema, actorId, now }) => {
  const purged = changes.filter((c) => c.kind === 'purge').map((c) => c.rowId);
  if (purged.length > 0) await deleteLogsOfRecords(trx, schema.id, purged);
  if (!schema.recordLogs) return;
  const entries = logEntriesOf(schema, changes, actorId, now);
  if (entries.length > 0) await insertLogEntries(trx, dialect, entries);
};
