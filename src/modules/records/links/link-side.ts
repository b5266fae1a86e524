import type { FieldMeta } from '../../../fields/field-type.js';
import { allowsSeveral, linkageOf } from '../../../fields/types/relation.js';
import { linkTableName, rowTableName } from '../../worksheets/worksheet-schema.js';

/**
 * How one relation field reads and writes its link table. A link is one row (source_id, target_id):
 * the forward field reads it from the source, its reverse field (on the target worksheet) from the
 * target. Both sides read the same rows, so a two-way relation cannot disagree with itself.
 */
export interface LinkSide {
  field: FieldMeta;
  table: string;
  /** The column holding the id of the record the field belongs to. */
  own: 'source_id' | 'target_id';
  /** The column holding the related record's id. */
  other: 'source_id' | 'target_id';
  /** The worksheet of the related records, and its row table. */
  relatedWorksheetId: string;
  relatedTable: string;
  /** Whether the field may hold several records (subType 2). */
  several: boolean;
}

export function linkSideOf(field: FieldMeta): LinkSide {
  const linkage = linkageOf(field);
  const forward = linkage.side === 'source';
  return {
    field,
    table: linkTableName(linkage.linkField),
    own: forward ? 'source_id' : 'target_id',
    other: forward ? 'target_id' : 'source_id',
    relatedWorksheetId: linkage.dataSource,
    relatedTable: rowTableName(linkage.dataSource),
    several: allowsSeveral(field),
  };
}
