import type { Executor } from '../../../db/connection.js';
import type { MetaSchema } from '../../../db/schema.js';

/** SQL of business rules (`business_rules`). */

export type RuleRow = MetaSchema['business_rules'];

/** A worksheet's rules in their order (position, then id). */
export async function listRules(db: Executor, worksheetId: string): Promise<RuleRow[]> {
  return db.selectFrom('business_rules').selectAll().where('worksheet_id', '=', worksheetId).orderBy('position').orderBy('id').execute();
}

/** A worksheet's enabled rules, in their order: what the record writer checks on every write. */
export async function enabledRules(db: Executor, worksheetId: string): Promise<Array<Pick<RuleRow, 'id' | 'name' | 'condition' | 'message'>>> {
  return db
    .selectFrom('business_rules')
    .select(['id', 'name', 'condition', 'message'])
    .where('worksheet_id', '=', worksheetId)
    .where('enabled', '=', 1)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function findRule(db: Executor, worksheetId: string, id: string): Promise<RuleRow | undefined> {
  return db.selectFrom('business_rules').selectAll().where('id', '=', id).where('worksheet_id', '=', worksheetId).executeTakeFirst();
}

/** The position after the worksheet's last rule. */
export async function nextPosition(db: Executor, worksheetId: string): Promise<number> {
  const found = await db.selectFrom('business_rules').select((eb) => eb.fn.max('position').as('last')).where('worksheet_id', '=', worksheetId).executeTakeFirst();
  return found?.last === null || found?.last === undefined ? 0 : Number(found.last) + 1;
}

export async function insertRule(db: Executor, row: RuleRow): Promise<void> {
  await db.insertInto('business_rules').values(row).execute();
}

export async function updateRule(db: Executor, id: string, changes: Partial<Omit<RuleRow, 'id' | 'worksheet_id' | 'created_at'>>): Promise<void> {
  await db.updateTable('business_rules').set(changes).where('id', '=', id).execute();
}

export async function deleteRule(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('business_rules').where('id', '=', id).execute();
}
