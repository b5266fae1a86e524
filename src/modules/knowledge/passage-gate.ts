import { hasWorksheetRight, rowsFor, worksheetGrant } from '../../access/index.js';
import type { StoredPassage } from '../../knowledge/passage.js';
import { EVERY_ROW, type RowPredicate } from '../../query/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { callerScope, visibleLiveIds } from '../records/index.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';

/**
 * Which passages a caller may be shown (docs/knowledge.md, "Permissions"): a record passage when
 * the caller reads its worksheet, every field it was built from exists and is visible to them, and its record
 * is live and within their read scope (their data scope, and the views their right comes through,
 * through `rowsFor`, the same predicate lists use); a document passage when they may search the
 * base. A passage with a hidden field is left out whole, so that its rank cannot reveal the field.
 * With a filter, only record passages of its worksheet whose records also pass it.
 */

/** A search's record filter, compiled under the caller's scope. */
export interface PassageFilter {
  worksheetId: string;
  predicate: RowPredicate;
}

/** What the gate knows of a worksheet for this caller: nothing readable (null), or its schema and hidden fields. */
type WorksheetAccess = { schema: WorksheetSchema; hidden: ReadonlySet<string> } | null;

export function passageGate(ctx: ServiceContext, filter: PassageFilter | null): (passages: readonly StoredPassage[]) => Promise<Set<number>> {
  const worksheets = new Map<string, Promise<WorksheetAccess>>();
  const accessTo = (worksheetId: string): Promise<WorksheetAccess> => {
    let access = worksheets.get(worksheetId);
    if (!access) {
      access = (async () => {
        if (!hasWorksheetRight(ctx.actor, worksheetId, 'read')) return null;
        try {
          const schema = await loadSchema(ctx, worksheetId);
          return { schema, hidden: worksheetGrant(ctx.actor, worksheetId).hiddenFields };
        } catch (error) {
          // A worksheet deleted since its passages were made: they are not shown.
          if (error instanceof AppError) return null;
          throw error;
        }
      })();
      worksheets.set(worksheetId, access);
    }
    return access;
  };

  return async (passages) => {
    const allowed = new Set<number>();
    const byWorksheet = new Map<string, StoredPassage[]>();
    for (const passage of passages) {
      const source = passage.source;
      if (source.type === 'document') {
        if (!filter) allowed.add(passage.seq);
        continue;
      }
      if (filter && source.worksheetId !== filter.worksheetId) continue;
      byWorksheet.set(source.worksheetId, [...(byWorksheet.get(source.worksheetId) ?? []), passage]);
    }
    for (const [worksheetId, group] of byWorksheet) {
      const access = await accessTo(worksheetId);
      if (!access) continue;
      // A field deleted since the passage was made: its text is not shown until the source's re-indexing replaces the passage.
      const readable = (id: string) => !access.hidden.has(id) && access.schema.byKey.get(id)?.id === id;
      const shown = group.filter((p) => p.source.type === 'record' && p.source.fieldIds.every(readable));
      const rowIds = [...new Set(shown.map((p) => (p.source.type === 'record' ? p.source.rowId : '')))];
      const predicate = rowsFor(ctx.actor, callerScope(ctx, access.schema), 'read', filter?.predicate ?? EVERY_ROW);
      const visible = await visibleLiveIds(ctx.db, access.schema.table, rowIds, predicate);
      for (const passage of shown) if (passage.source.type === 'record' && visible.has(passage.source.rowId)) allowed.add(passage.seq);
    }
    return allowed;
  };
}
