import type { Compilable } from 'kysely';
import type { Executor } from '../../../db/connection.js';
import type { MetaSchema } from '../../../db/schema.js';
import type { RowSource } from '../repository.js';

/**
 * SQL over the draft box (`record_drafts`, `record_draft_boxes`; migration 0010). Reads outside a
 * write go through the engine's row reader (committed rows, never waiting for a transaction in
 * progress, as record reads do); writes and the reads they depend on go through their transaction.
 */

export type DraftRow = MetaSchema['record_drafts'];

/** Whose box, in which worksheet: every statement on drafts is limited to one. */
export interface DraftBox {
  worksheetId: string;
  createdBy: string;
}

const COLUMNS = ['id', 'app_id', 'worksheet_id', 'created_by', 'created_at', 'updated_at', 'inputs'] as const;

async function read<T>(source: RowSource, query: Compilable): Promise<T[]> {
  const { sql, parameters } = query.compile();
  return (await source.reader.read(sql, parameters)) as T[];
}

function inBox(db: Executor, box: DraftBox) {
  return db.selectFrom('record_drafts').where('worksheet_id', '=', box.worksheetId).where('created_by', '=', box.createdBy);
}

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

function countQuery(db: Executor, box: DraftBox) {
  return inBox(db, box).select((eb) => eb.fn.countAll<number | string>().as('count'));
}

/** The drafts in a box, inside a transaction that has claimed it. */
export async function countDrafts(trx: Executor, box: DraftBox): Promise<number> {
  return Number((await countQuery(trx, box).executeTakeFirstOrThrow()).count);
}

/** The drafts in a box, committed. */
export async function readCount(source: RowSource, box: DraftBox): Promise<number> {
  const [row] = await read<{ count: number | string }>(source, countQuery(source.db, box));
  return Number(row.count);
}

export async function insertDraft(trx: Executor, draft: DraftRow): Promise<void> {
  await trx.insertInto('record_drafts').values(draft).execute();
}

/** One committed draft of a box, by id. */
export async function readDraft(source: RowSource, box: DraftBox, id: string): Promise<DraftRow | undefined> {
  return (await read<DraftRow>(source, inBox(source.db, box).select(COLUMNS).where('id', '=', id)))[0];
}

/** A page of a box, committed, in creation order (the id breaks ties). */
export async function readDrafts(source: RowSource, box: DraftBox, limit: number, offset: number): Promise<DraftRow[]> {
  return read<DraftRow>(source, inBox(source.db, box).select(COLUMNS).orderBy('created_at').orderBy('id').limit(limit).offset(offset));
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

/** The inputs of a draft the transaction has locked. */
export async function lockedInputs(trx: Executor, box: DraftBox, id: string): Promise<string> {
  return (await inBox(trx, box).select('inputs').where('id', '=', id).executeTakeFirstOrThrow()).inputs;
}

export async function replaceInputs(trx: Executor, box: DraftBox, id: string, inputs: string): Promise<void> {
  await trx.updateTable('record_drafts').set({ inputs }).where('id', '=', id).where('worksheet_id', '=', box.worksheetId).where('created_by', '=', box.createdBy).execute();
}

function deleteQuery(db: Executor, box: DraftBox, id: string) {
  return db.deleteFrom('record_drafts').where('id', '=', id).where('worksheet_id', '=', box.worksheetId).where('created_by', '=', box.createdBy);
}

/** Removes a draft from its box; returns whether it was there. */
export async function deleteDraft(db: Executor, box: DraftBox, id: string): Promise<boolean> {
  return Number((await deleteQuery(db, box, id).executeTakeFirst()).numDeletedRows) > 0;
}

/** Removes a draft from its box and returns its inputs (undefined when it was not there). */
export async function takeDraft(trx: Executor, box: DraftBox, id: string): Promise<string | undefined> {
  return (await deleteQuery(trx, box, id).returning('inputs').executeTakeFirst())?.inputs;
}
