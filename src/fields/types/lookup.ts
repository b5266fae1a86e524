import { defineFieldType } from '../define-field-type.js';
import type { FieldMeta, ReferenceKind } from '../field-type.js';
import { checkRelatedSource } from '../computed/related-config.js';
import { fieldTypeOf } from '../registry.js';
import { AppError } from '../../shared/app-error.js';

/** The source field of a lookup as far as its own config knows it (its type), for when the related schema is not at hand. */
export function sourceStandIn(field: FieldMeta): FieldMeta {
  const type = String(field.config.sourceType ?? '2');
  return { ...field, id: String(field.config.sourceField), type, config: {}, options: [], fieldType: fieldTypeOf(type) };
}

/**
 * 30 Lookup: the values of a field of the records a relation field relates to (`config.relationField`,
 * `config.sourceField`), in link order, read as the source field reads them (a list, one entry per
 * value; list values are flattened). Stored as a JSON array of the source's stored values, kept
 * current by the record writer. Filters: its source field's operators, over the values it holds
 * (`query/conditions/lookups.ts`), and isempty / isnotempty.
 */
export const lookup = defineFieldType({
  code: '30',
  name: 'Lookup',
  valueKind: 'json',
  column: 'json',
  filterKind: 'lookup',
  availability: 'ready',
  readOnly: true,
  prepare(draft) {
    checkRelatedSource(draft, true);
    if (draft.config.filter !== undefined) throw AppError.invalidValue(`field "${draft.name}": config.filter belongs to rollups; a lookup shows every related record`);
    return { options: [], config: { ...draft.config } };
  },
  read(stored, field, refs) {
    if (stored === null) return [];
    const source = refs.lookupSources?.get(String(field.config.sourceField)) ?? sourceStandIn(field);
    const read = source.fieldType.read;
    const shown: unknown[] = [];
    // A page shows thousands of looked-up values: a plain loop, no intermediate arrays.
    for (const value of stored as unknown[]) {
      const one = read(value, source, refs);
      if (Array.isArray(one)) for (const item of one) shown.push(item);
      else shown.push(one);
    }
    return shown;
  },
  references(stored, field) {
    const type = fieldTypeOf(String(field.config.sourceType ?? '2'));
    if (!type.references || stored === null) return null;
    const ids = new Set<string>();
    let kind: ReferenceKind | undefined;
    for (const value of stored as unknown[]) {
      const found = value === null ? null : type.references(value, sourceStandIn(field));
      if (!found) continue;
      kind = found.kind;
      for (const id of found.ids) ids.add(id);
    }
    return kind ? { kind, ids: [...ids] } : null;
  },
  isEmpty: (stored) => stored === null || (Array.isArray(stored) && stored.length === 0),
  computed: {
    kind: 'related',
    aggregation: () => 'lookup',
    refusesSource: (source) => (source.fieldType.storage === 'column' ? null : `a ${source.fieldType.name} field cannot be looked up`),
  },
});
