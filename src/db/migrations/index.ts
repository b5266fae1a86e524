import type { Migration } from 'kysely';
import * as initial from './0001-initial.js';
import * as rowIndexes from './0002-row-indexes.js';

/** Every migration, by its number. Append only: never edit or reorder a released migration. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-row-indexes': rowIndexes,
};
