import { defineFieldType } from '../define-field-type.js';
import type { FieldType, ReferenceKind, ResolvedReferences } from '../field-type.js';
import { badFieldValue, show } from './value-errors.js';
import { AppError } from '../../shared/app-error.js';

/**
 * A type whose value is a list of ids of existing things (members, departments).
 * The ids are checked to exist, in one query per request, by the records service.
 * `subType` 0 means one at most; anything else (the default) allows several.
 */
export function referenceKind(spec: {
  code: string;
  name: string;
  kind: ReferenceKind;
  idKey: string;
  filterKind?: FieldType['filterKind'];
  present: (id: string, refs: ResolvedReferences) => Record<string, unknown>;
}): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'reference',
    referenceKind: spec.kind,
    ...(spec.filterKind ? { filterKind: spec.filterKind } : {}),
    column: 'json',
    availability: 'ready',
    prepare(draft) {
      const config = { ...draft.config };
      if (config.subType !== undefined && config.subType !== 0 && config.subType !== 1) {
        throw AppError.invalidValue(`field "${draft.name}": subType must be 0 (one) or 1 (several), got ${show(config.subType)}`);
      }
      return { options: [], config };
    },
    write(value, field, ctx) {
      const list = Array.isArray(value) ? value : [value];
      const ids: string[] = [];
      for (const item of list) {
        const id = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[spec.idKey] : item;
        if (typeof id !== 'string' || id === '') throw badFieldValue(ctx.label, `expected ${spec.kind} ids, got ${show(item)}`);
        if (!ids.includes(id)) ids.push(id);
      }
      if (ids.length === 0) return null;
      if (field.config.subType === 0 && ids.length > 1) throw badFieldValue(ctx.label, `takes one ${spec.kind}, got ${ids.length}`);
      return ids;
    },
    read: (stored, _field, refs) => ((stored as string[] | null) ?? []).map((id) => spec.present(id, refs)),
    references: (stored) => (stored === null ? null : { kind: spec.kind, ids: stored as string[] }),
    isEmpty: (stored) => stored === null || (Array.isArray(stored) && stored.length === 0),
  });
}
