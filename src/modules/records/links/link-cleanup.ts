import type { Executor } from '../../../db/connection.js';
import { linkageOf } from '../../../fields/types/relation.js';
import { linkFieldsOfApp, type WorksheetSchema } from '../../worksheets/index.js';
import { deleteLinksOfRecords } from './link-repository.js';

/**
 * Removes every link to or from records that are deleted for good: from the link tables of this
 * worksheet's relations and of every relation (of any worksheet of the application, one-way ones
 * included) that points at this worksheet. Each link table is visited once, by its forward field.
 */
export async function deleteLinksOfWorksheetRecords(trx: Executor, schema: WorksheetSchema, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const field of await linkFieldsOfApp(trx, schema.appId)) {
    const linkage = linkageOf(field);
    if (linkage.side !== 'source') continue;
    if (field.worksheetId === schema.id) await deleteLinksOfRecords(trx, field.id, 'source_id', ids);
    if (linkage.dataSource === schema.id) await deleteLinksOfRecords(trx, field.id, 'target_id', ids);
  }
}
