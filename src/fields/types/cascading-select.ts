import { AppError } from '../../shared/app-error.js';
import { defineFieldType } from '../define-field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/**
 * 35 CascadingSelect: one record of a hierarchical worksheet (`dataSource`: its id or alias; its
 * records are the choices, usually arranged by a self relation), stored as that record's id (the
 * leaf chosen). Written as the record id, `[id]` or `[{sid}]`; it must be a live record of that
 * worksheet (10002). Read as `[{sid, name}]` with the record's title. Filters: eq, ne, in, notin
 * (record ids), isempty, isnotempty.
 */
export const cascadingSelect = defineFieldType({
  code: '35',
  name: 'CascadingSelect',
  valueKind: 'reference',
  column: 'text',
  pointsAt: 'record',
  filterKind: 'recordId',
  availability: 'ready',
  indexable: false,
  prepare(draft, previous) {
    const config = { ...draft.config };
    if (previous) {
      if (config.dataSource !== undefined && config.dataSource !== previous.config.dataSource) throw AppError.invalidValue(`field "${draft.name}": dataSource cannot change; add a new field instead`);
      return { options: [], config: { ...config, dataSource: previous.config.dataSource } };
    }
    if (typeof config.dataSource !== 'string' || config.dataSource.trim() === '') {
      throw AppError.invalidParameters(`field "${draft.name}": dataSource is required: the worksheet (id or alias) whose records are the choices`);
    }
    return { options: [], config };
  },
  write(value, _field, ctx) {
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) return null;
    if (list.length > 1) throw badFieldValue(ctx.label, `takes one record, got ${list.length}`);
    const item = list[0];
    const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).sid : item;
    if (typeof id !== 'string' || id === '') throw badFieldValue(ctx.label, `expected a record id (or {sid}), got ${show(item)}`);
    return id;
  },
  read: (stored, _field, refs) => (stored === null ? [] : [{ sid: stored as string, name: refs.records.get(stored as string) ?? '' }]),
});
