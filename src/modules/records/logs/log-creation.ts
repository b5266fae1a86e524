import type { ServiceContext } from '../../../shared/service-context.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { linksOf } from '../links/link-repository.js';
import { linkSideOf } from '../links/link-side.js';
import { anyRowValues } from '../repository.js';
import { isEmpty, type FieldChange } from './log-entries.js';

/**
 * Whether a record made at `createdAt` has a create entry: the log was on then (creates write no
 * entry; the record itself is its create entry's evidence).
 */
export function createdWhileLogged(schema: WorksheetSchema, createdAt: number): boolean {
  if (schema.recordLogs && createdAt >= schema.recordLogsSince) return true;
  return schema.recordLogPeriods.some(([from, to]) => createdAt >= from && createdAt <= to);
}

/** A create entry's source: a workflow's (its creator is the workflow pseudo-user), otherwise manual or API. */
export function creationSource(createdBy: string): 1 | 2 {
  return createdBy === 'user-workflow' ? 2 : 1;
}

/**
 * The values a record was created with, for its create entry: its values now, with every later
 * logged change undone, newest first. Exact while the log has run without a break since the
 * creation; when it was switched off since (or is off), the values are not known and none are
 * shown. A field removed since shows when a later change of it was logged (its value before that
 * change); related records removed for good since are not shown.
 *
 * `later`: the field changes of the record's entries (all after the create), newest first.
 */
export async function creationChanges(ctx: ServiceContext, schema: WorksheetSchema, rowId: string, createdAt: number, later: FieldChange[][]): Promise<FieldChange[]> {
  if (!schema.recordLogs || createdAt < schema.recordLogsSince) return [];
  const columns = schema.fields.filter((f) => f.fieldType.storage === 'column' && !f.fieldType.computed);
  const row = await anyRowValues(ctx.db, schema.table, rowId, columns.map((f) => f.id));
  if (!row) return [];
  const values = new Map<string, unknown>();
  for (const field of columns) values.set(field.id, ctx.dialect.decode(field.fieldType.column!, row[field.id] ?? null));
  const linkFields = schema.fields.filter((f) => f.fieldType.storage === 'links');
  for (const field of linkFields) values.set(field.id, (await linksOf(ctx.db, linkSideOf(field), [rowId])).get(rowId) ?? []);
  // Fields removed since, known from a later change of theirs: their name and type as it recorded them.
  const removed = new Map<string, { n: string; t: string }>();
  for (const changes of later) {
    for (const change of changes) {
      const known = schema.byKey.has(change.f);
      if (change.a || change.r) {
        if (!known) continue;
        const ids = (values.get(change.f) as string[]).filter((id) => !change.a?.includes(id));
        values.set(change.f, [...ids, ...(change.r ?? []).filter((id) => !ids.includes(id))]);
      } else {
        values.set(change.f, change.o ?? null);
        if (!known) removed.set(change.f, { n: change.n, t: change.t });
      }
    }
  }
  const found: FieldChange[] = [];
  for (const [fieldId, value] of values) {
    if (isEmpty(value)) continue;
    const field = schema.byKey.get(fieldId);
    const { n, t } = field ? { n: field.name, t: field.type } : removed.get(fieldId)!;
    found.push(field?.fieldType.storage === 'links' ? { f: fieldId, n, t, a: value as string[] } : { f: fieldId, n, t, v: value });
  }
  return found;
}
