import type { Selectable } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { MetaSchema } from '../../db/schema.js';
import type { FieldOption } from '../../fields/field-type.js';

type OptionSetRow = Selectable<MetaSchema['option_sets']>;

/** An option set as the program sees it (parsed from its `option_sets` row). */
export interface OptionSet {
  id: string;
  appId: string;
  name: string;
  /** As a field keeps them: retired options stay, flagged `isDeleted`. */
  options: FieldOption[];
  enableColor: boolean;
  enableScore: boolean;
  /** Who made it. */
  accountId: string;
}

function fromRow(row: OptionSetRow): OptionSet {
  return {
    id: row.id,
    appId: row.app_id,
    name: row.name,
    options: JSON.parse(row.options) as FieldOption[],
    enableColor: Number(row.enable_color) === 1,
    enableScore: Number(row.enable_score) === 1,
    accountId: row.account_id,
  };
}

export async function listOptionSets(db: Executor, appId: string): Promise<OptionSet[]> {
  const rows = await db.selectFrom('option_sets').selectAll().where('app_id', '=', appId).orderBy('created_at').orderBy('id').execute();
  return rows.map(fromRow);
}

/** The option set of this application with this id, if any. */
export async function findOptionSet(db: Executor, appId: string, id: string): Promise<OptionSet | undefined> {
  const row = await db.selectFrom('option_sets').selectAll().where('app_id', '=', appId).where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

/**
 * The option set, held until the caller's transaction ends: a no-op UPDATE takes the row's lock
 * first (on both engines), so an edit, a deletion and a field starting to use the set never
 * interleave: whoever comes second reads what the first committed.
 */
export async function claimOptionSet(db: Executor, appId: string, id: string): Promise<OptionSet | undefined> {
  await db.updateTable('option_sets').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('app_id', '=', appId).where('id', '=', id).execute();
  return findOptionSet(db, appId, id);
}

export async function insertOptionSet(db: Executor, set: OptionSet, now: number): Promise<void> {
  await db
    .insertInto('option_sets')
    .values({
      id: set.id,
      app_id: set.appId,
      name: set.name,
      options: JSON.stringify(set.options),
      enable_color: set.enableColor ? 1 : 0,
      enable_score: set.enableScore ? 1 : 0,
      account_id: set.accountId,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function updateOptionSet(db: Executor, set: OptionSet, now: number): Promise<void> {
  await db
    .updateTable('option_sets')
    .set({ name: set.name, options: JSON.stringify(set.options), enable_color: set.enableColor ? 1 : 0, enable_score: set.enableScore ? 1 : 0, updated_at: now })
    .where('id', '=', set.id)
    .execute();
}

export async function deleteOptionSet(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('option_sets').where('id', '=', id).execute();
}
