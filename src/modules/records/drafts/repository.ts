import type { Executor } from '../../../db/connection.js';
import type { MetaSchema } from '../../../db/schema.js';

/** SQL over the draft box (`record_drafts`, `record_draft_boxes`; migration 0010). */

export type DraftRow = MetaSchema['record_drafts'];

/** Whose box, in which worksheet: every statement on drafts is limited to one. */
export interface DraftBox {
  worksheetId: string;
  createdBy: string;
}

const COLUMNS = ['id', 'app_id', 'worksheet_id', 'created_by', 'created_at', 'updated_at', 'inputs'] as const;

/**
 * Locks a box for the rest of the transaction (creating its row on first use): concurrent creations
 * in the same box wait here, so each counts the drafts the others committed.
 */
export async function claimBox(trx: Executor, box: DraftBox, now: number): Promise<void> {
  await trx
    .insertInto('record_draft_boxes')
    .values({ worksheet_id: box.worksheetId, created_by: box.createdBy, claimed_at: now })
    .onConflict((conflict) => conflict.columns(['worksheet_id', 'created_by']).doUpdateSet({ claimed_at: now }))
    .execute();
}

export async function countDrafts(db: Executor, box: DraftBox): Promise<number> {
  const row = await db
    .selectFrom('record_drafts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('worksheet_id', '=', box.worksheetId)
    .where('created_by', '=', box.createdBy)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertDraft(trx: Executor, draft: DraftRow): Promise<void> {
  await trx.insertInto('record_drafts').values(draft).execute();
}

/** One draft of a box, by id. */
export async function findDraft(db: Executor, box: DraftBox, id: string): Promise<DraftRow | undefined> {
  return db.selectFrom('record_drafts').select(COLUMNS).where('id', '=', id).where('worksheet_id', '=', box.worksheetId).where('created_by', '=', box.createdBy).executeTakeFirst();
}

/** A page of a box, in creation order (the id breaks ties). */
export async function listDrafts(db: Executor, box: DraftBox, limit: number, offset: number): Promise<DraftRow[]> {
  return db
    .selectFrom('record_drafts')
    .select(COLUMNS)
    .where('worksheet_id', '=', box.worksheetId)
    .where('created_by', '=', box.createdBy)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Marks a draft changed now, locking it for the rest of the transaction; returns whether it is in the box. */
export async function touchDraft(trx: Executor, box: DraftBox, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('record_drafts')
    .set({ updated_at: now })
    .where('id', '=', id)
    .where('worksheet_id', '=', box.worksheetId)
    .where('created_by', '=', box.createdBy)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function replaceInputs(trx: Executor, box: DraftBox, id: string, inputs: string): Promise<void> {
  await trx.updateTable('record_drafts').set({ inputs }).where('id', '=', id).where('worksheet_id', '=', box.worksheetId).where('created_by', '=', box.createdBy).execute();
}

/** Removes a draft from its box; returns whether it was there. */
export async function deleteDraft(db: Executor, box: DraftBox, id: string): Promise<boolean> {
  const result = await db.deleteFrom('record_drafts').where('id', '=', id).where('worksheet_id', '=', box.worksheetId).where('created_by', '=', box.createdBy).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
