import type { Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';
import * as initial from './0001-initial.js';
import * as rowIndexes from './0002-row-indexes.js';
import * as coveringReadIndexes from './0003-covering-read-indexes.js';
import * as rowChanges from './0004-row-changes.js';
import * as recordSequence from './0005-record-sequence.js';
import * as files from './0006-files.js';
import * as recordDrafts from './0010-record-drafts.js';

/** Every migration, by its number. Append only: never edit or reorder a released migration. */
/** One migration: it may ask the engine's dialect for what differs between engines. */
export interface Migration {
  up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void>;
}

export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-row-indexes': rowIndexes,
  '0003-covering-read-indexes': coveringReadIndexes,
  '0004-row-changes': rowChanges,
  '0005-record-sequence': recordSequence,
  '0006-files': files,
  '0010-record-drafts': recordDrafts,
};
