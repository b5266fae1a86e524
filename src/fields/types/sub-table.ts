import { AppError } from '../../shared/app-error.js';
import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/** One child row as written: new (no `sid`) or an existing child to update; its values as `[{id, value}]`. */
export interface ChildRow {
  sid?: string;
  fields: Array<{ id?: string; value?: unknown; type?: number }>;
}

/** A sub-table value as written: the children the record has after the write, in order; the others are deleted. */
export interface SubTableEdit {
  rows: ChildRow[];
}

/**
 * 34 SubTable: records of a child worksheet that belong to the record (created, updated and deleted
 * through it, deleted and restored with it). Defined with `config.fields` (the child worksheet is
 * created, hidden from the navigation) or `dataSource` (an existing worksheet). Written as the list
 * of child rows: `[{id, value}]` lists (new children) or `{sid, fields}` (a child to update; `fields`
 * alone is a new one); children not listed are deleted. Links are kept like a relation's; read as
 * `[{sid, name}]`, listed in full by `GET …/relations/{field}`. Filters: isempty / isnotempty.
 */
export const subTable = defineFieldType({
  code: '34',
  name: 'SubTable',
  valueKind: 'reference',
  column: null,
  storage: 'links',
  owns: true,
  filterKind: 'linkPresence',
  availability: 'ready',
  indexable: false,
  storedWhenEmpty: { rows: [] } satisfies SubTableEdit,
  prepare(draft, previous) {
    const config: Record<string, unknown> = { ...draft.config, subType: 2 };
    for (const key of ['linkField', 'side', 'reverseField', 'bidirectional']) delete config[key];
    if (previous) return { options: [], config: { ...config, dataSource: previous.config.dataSource, linkField: previous.config.linkField, side: 'source' } };
    const hasSource = typeof config.dataSource === 'string' && config.dataSource.trim() !== '';
    if (!hasSource && !Array.isArray(config.fields)) {
      throw AppError.invalidParameters(`field "${draft.name}": config.fields (the child worksheet's field definitions) or dataSource (an existing worksheet) is required`);
    }
    return { options: [], config };
  },
  write(value, _field, ctx) {
    if (!Array.isArray(value)) throw badFieldValue(ctx.label, `expected a list of child rows, got ${show(value)}`);
    const rows = value.map((item, i): ChildRow => {
      if (Array.isArray(item)) return { fields: item as ChildRow['fields'] };
      if (typeof item === 'object' && item !== null) {
        const { sid, rowId, fields } = item as Record<string, unknown>;
        const id = sid ?? rowId;
        if (id !== undefined && (typeof id !== 'string' || id === '')) throw badFieldValue(ctx.label, `rows[${i}].sid must be a child record id`);
        if (fields !== undefined && !Array.isArray(fields)) throw badFieldValue(ctx.label, `rows[${i}].fields must be a list of {id, value}`);
        return { ...(id === undefined ? {} : { sid: id as string }), fields: (fields as ChildRow['fields'] | undefined) ?? [] };
      }
      throw badFieldValue(ctx.label, `rows[${i}]: expected a list of {id, value} or {sid, fields}, got ${show(item)}`);
    });
    return { rows } satisfies SubTableEdit;
  },
  read: (stored, _field, refs) => ((stored as string[] | null) ?? []).map((sid) => ({ sid, name: refs.records.get(sid) ?? '' })),
  isEmpty: (stored) => stored === null || (Array.isArray(stored) ? stored.length === 0 : (stored as SubTableEdit).rows.length === 0),
});
