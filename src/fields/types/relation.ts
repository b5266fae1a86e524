import { AppError } from '../../shared/app-error.js';
import { defineFieldType } from '../define-field-type.js';
import type { FieldMeta } from '../field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/** How a written relation value combines with the links a record has. */
export type LinkEditMode = 'replace' | 'add' | 'remove';

/** A relation value as written: what the record writer's link hook applies inside the write's transaction. */
export interface LinkEdit {
  mode: LinkEditMode;
  /** Record ids of the related worksheet, each once, in the order written. */
  ids: string[];
}

/**
 * Keys of a relation's config that the server keeps: which link table holds its links and on which
 * side of it the field reads. A client cannot set them (`prepare` keeps the server's).
 */
export interface RelationLinkage {
  /** The worksheet the field relates to (its id; `dataSource` may be written as an alias or `selfRelation`). */
  dataSource: string;
  /** The relation field whose link table holds the links: the field itself, or the one it is the reverse of. */
  linkField: string;
  /** `source`: the field's record is the link's source; `target`: the field is the reverse side. */
  side: 'source' | 'target';
  /** The other side's field on a two-way relation. */
  reverseField?: string;
}

const SERVER_KEYS = ['linkField', 'side', 'reverseField'] as const;

/** 1 one related record, 2 several (the public `subType`). */
export function allowsSeveral(field: FieldMeta): boolean {
  return field.config.subType !== 1;
}

/** Whether a relation field's config asks for the reverse field on the target worksheet. */
export function wantsReverse(config: Record<string, unknown>): boolean {
  const relation = config.relation as Record<string, unknown> | undefined;
  return config.bidirectional === true || relation?.bidirectional === true;
}

/** The server-kept linkage of a defined relation field. */
export function linkageOf(field: FieldMeta): RelationLinkage {
  const { dataSource, linkField, side, reverseField } = field.config as Partial<RelationLinkage>;
  return { dataSource: dataSource ?? '', linkField: linkField ?? field.id, side: side ?? 'source', ...(reverseField ? { reverseField } : {}) };
}

/** The public V2 form `{rowIds, isAdd}`: adds (`isAdd: true`) or removes (`false`) these records. */
function isV2Edit(value: unknown): value is { rowIds: unknown; isAdd?: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'rowIds' in value;
}

const MODES: Record<number, LinkEditMode> = { 0: 'replace', 1: 'add', 2: 'remove' };

/**
 * 29 Relation: links to records of a worksheet (`dataSource`: its id or alias, or `selfRelation`),
 * one (`subType` 1) or several (2, the default), one-way or two-way (`bidirectional`, also under
 * `relation`). Links live in a link table, not in the row (`records/links/`). Written as record ids
 * (or `{sid}` objects); the item's `type` 1 adds and 2 removes instead of replacing; read as
 * `[{sid, name}]` with each related record's title.
 */
export const relation = defineFieldType({
  code: '29',
  name: 'Relation',
  valueKind: 'reference',
  column: null,
  storage: 'links',
  filterKind: 'links',
  availability: 'ready',
  canBeRequired: true,
  indexable: false,
  // Written empty (null, "", nothing): the record links to nothing.
  storedWhenEmpty: { mode: 'replace', ids: [] } satisfies LinkEdit,
  prepare(draft, previous) {
    const config: Record<string, unknown> = { ...draft.config };
    for (const key of SERVER_KEYS) delete config[key];
    if (config.subType === undefined) config.subType = 2;
    if (config.subType !== 1 && config.subType !== 2) {
      throw AppError.invalidValue(`field "${draft.name}": subType must be 1 (one record) or 2 (several), got ${show(config.subType)}`);
    }
    if (previous) {
      const kept = linkageOf(previous);
      if (config.dataSource !== undefined && config.dataSource !== kept.dataSource) {
        throw AppError.invalidValue(`field "${draft.name}": dataSource cannot change (the links would point into another worksheet); add a new field instead`);
      }
      return { options: [], config: { ...config, ...kept } };
    }
    if (typeof config.dataSource !== 'string' || config.dataSource.trim() === '') {
      throw AppError.invalidParameters(`field "${draft.name}": dataSource is required: the related worksheet's id or alias, or "selfRelation"`);
    }
    return { options: [], config };
  },
  write(value, field, ctx) {
    const v2 = isV2Edit(value);
    const mode: LinkEditMode = v2 ? (value.isAdd === false ? 'remove' : 'add') : (MODES[ctx.mode ?? 0] ?? 'replace');
    const listed = v2 ? value.rowIds : value;
    const items = Array.isArray(listed) ? listed : [listed];
    const ids: string[] = [];
    for (const item of items) {
      const id = typeof item === 'object' && item !== null ? ((item as Record<string, unknown>).sid ?? (item as Record<string, unknown>).rowId) : item;
      if (typeof id !== 'string' || id === '') throw badFieldValue(ctx.label, `expected record ids (or {sid} objects), got ${show(item)}`);
      if (!ids.includes(id)) ids.push(id);
    }
    if (mode === 'replace' && !allowsSeveral(field) && ids.length > 1) throw badFieldValue(ctx.label, `relates to one record (subType 1), got ${ids.length}`);
    return { mode, ids } satisfies LinkEdit;
  },
  // The presenter puts the ids a record links to (live ones, in link order) in place of a stored value.
  read: (stored, _field, refs) => ((stored as string[] | null) ?? []).map((sid) => ({ sid, name: refs.records.get(sid) ?? '' })),
  // A written edit (checked for `required` on create) or the ids read back.
  isEmpty: (stored) => {
    if (stored === null) return true;
    if (Array.isArray(stored)) return stored.length === 0;
    const edit = stored as LinkEdit;
    return edit.mode === 'remove' || edit.ids.length === 0;
  },
});
