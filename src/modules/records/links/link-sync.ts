import { AppError } from '../../../shared/app-error.js';
import type { Executor } from '../../../db/connection.js';
import type { SqlDialect } from '../../../db/dialect/sql-dialect.js';
import type { FieldMeta } from '../../../fields/field-type.js';
import { allowsSeveral, linkageOf, type LinkEdit } from '../../../fields/types/relation.js';
import type { WorksheetSchema } from '../../worksheets/worksheet-schema.js';
import { linkSideOf, type LinkSide } from './link-side.js';
import * as linkRepository from './link-repository.js';
import { liveRecordIds } from '../repository.js';

/**
 * What writing one relation field needs to know beyond the field, found before the write's
 * transaction opens (schemas are loaded outside it): the related worksheet's name for messages, and
 * whether each related record may be linked from one record only (the other side of a two-way
 * relation holds one record).
 */
export interface LinkPlan {
  side: LinkSide;
  /** The related worksheet's schema (the other side's records are changed too: their reverse field). */
  related: WorksheetSchema;
  relatedName: string;
  /** The other side of a two-way relation holds one record: linking takes the related record from whoever had it. */
  relatedHoldsOne: boolean;
  /** The other side's field of a two-way relation (on the related worksheet). */
  counterpart?: FieldMeta;
}

/** The field on the other side of a two-way relation, if there is one. */
function counterpartOf(field: FieldMeta, related: WorksheetSchema): FieldMeta | undefined {
  const linkage = linkageOf(field);
  const counterpartId = linkage.side === 'source' ? linkage.reverseField : linkage.linkField;
  return counterpartId ? related.byKey.get(counterpartId) : undefined;
}

export function planLinks(field: FieldMeta, related: WorksheetSchema): LinkPlan {
  const counterpart = counterpartOf(field, related);
  return { side: linkSideOf(field), related, relatedName: related.name, relatedHoldsOne: counterpart !== undefined && !allowsSeveral(counterpart), ...(counterpart ? { counterpart } : {}) };
}

/** One record's written value of a relation field. */
export interface LinkWrite {
  rowId: string;
  edit: LinkEdit;
}

/** A record's related ids before and after the write (links to deleted records included). */
export interface LinkOutcome {
  before: string[];
  after: string[];
}

function applied(current: string[], edit: LinkEdit): string[] {
  if (edit.mode === 'replace') return edit.ids;
  if (edit.mode === 'add') return [...current, ...edit.ids.filter((id) => !current.includes(id))];
  return current.filter((id) => !edit.ids.includes(id));
}

/**
 * Applies the written values of one relation field, inside the write's transaction: reads the links
 * the records have (none when they were just created), checks that every newly linked record is a
 * live record of the related worksheet (10002 naming those that are not), and writes only the
 * difference: removed links are deleted, new ones appended. A reordering rewrites the record's
 * links. Returns, by record, its related ids before and after, and the records of this worksheet
 * that lost links to related records that may be linked from one record only (with those records).
 */
export async function applyLinkEdits(
  trx: Executor,
  dialect: SqlDialect,
  plan: LinkPlan,
  writes: LinkWrite[],
  created: boolean,
): Promise<{ outcomes: Map<string, LinkOutcome>; unlinked: Map<string, string[]> }> {
  const { side } = plan;
  const field = side.field;
  const current = created ? new Map(writes.map((w) => [w.rowId, [] as string[]])) : await linkRepository.linksOf(trx, side, writes.map((w) => w.rowId));
  const outcomes = new Map<string, LinkOutcome>();
  const newlyLinked = new Set<string>();
  for (const write of writes) {
    const before = current.get(write.rowId) ?? [];
    const after = applied(before, write.edit);
    if (!side.several && after.length > 1) {
      throw AppError.invalidValue(`field "${field.name}": relates to one record (subType 1); record "${write.rowId}" would relate to ${after.length}`);
    }
    for (const id of after) if (!before.includes(id)) newlyLinked.add(id);
    outcomes.set(write.rowId, { before, after });
  }
  const live = await liveRecordIds(trx, side.relatedTable, [...newlyLinked]);
  const missing = [...newlyLinked].filter((id) => !live.has(id));
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).map((id) => `"${id}"`).join(', ');
    throw AppError.invalidValue(`field "${field.name}": no record ${shown}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''} in worksheet "${plan.relatedName}" (or it was deleted)`);
  }
  const inserts: Array<[string, string]> = [];
  const unlinked = new Map<string, string[]>();
  // A related record that may be linked from one record only cannot be given to two in one write.
  const claimedBy = new Map<string, string>();
  for (const [rowId, { before, after }] of outcomes) {
    if (plan.relatedHoldsOne) {
      for (const id of after) {
        const other = claimedBy.get(id);
        if (other !== undefined) throw AppError.invalidValue(`field "${field.name}": record "${id}" of "${plan.relatedName}" can be related to one record only, and this write relates it to "${other}" and "${rowId}"`);
        claimedBy.set(id, rowId);
      }
    }
    const kept = before.filter((id) => after.includes(id));
    const inOrder = kept.every((id, i) => after[i] === id);
    const removed = inOrder ? before.filter((id) => !after.includes(id)) : before;
    const added = inOrder ? after.slice(kept.length) : after;
    await linkRepository.deleteLinks(trx, side, rowId, removed);
    if (plan.relatedHoldsOne) {
      for (const taken of await linkRepository.takeLinksFromOthers(trx, side, rowId, added)) unlinked.set(taken.own, [...(unlinked.get(taken.own) ?? []), taken.other]);
    }
    for (const id of added) inserts.push([rowId, id]);
  }
  await linkRepository.insertLinks(trx, dialect, side, inserts);
  return { outcomes, unlinked };
}
