import type { FieldType, PreparedDefinition, FieldDefinitionDraft } from './field-type.js';
import { badFieldValue } from './kinds/value-errors.js';

/** What a type file states; `defineFieldType` fills in the rest. */
export interface FieldTypeSpec
  extends Omit<FieldType, 'readOnly' | 'canBeTitle' | 'canBeRequired' | 'indexable' | 'prepare' | 'read' | 'isEmpty' | 'storage'>,
    Partial<Pick<FieldType, 'readOnly' | 'canBeTitle' | 'canBeRequired' | 'indexable' | 'prepare' | 'read' | 'isEmpty' | 'storage'>> {
  /**
   * What an empty written value (`null`, `undefined` or `""`) is stored as; `write` never sees one.
   * Default null; a checkbox stores false, because unchecked is a value it shows.
   */
  storedWhenEmpty?: unknown;
}

/** Options belong to choice types; any other type keeps only its (merged) config. */
function keepConfig(draft: FieldDefinitionDraft): PreparedDefinition {
  return { options: [], config: draft.config };
}

function storedOrNull(stored: unknown): unknown {
  return stored ?? null;
}

function isNull(stored: unknown): boolean {
  return stored === null;
}

/**
 * A complete field type from what its file states. Defaults: stored in its column (none without
 * one); not read-only, not a title; requirable when it holds a value clients write; indexable when its column is a scalar (not JSON,
 * not none); `prepare` keeps the config and no options; `read` shows the stored value; empty means
 * null; a computed type refuses written values. `write` is wrapped so that empty values are stored
 * as `storedWhenEmpty` before the type's own checks run.
 *
 * @example
 * export const date = defineFieldType({
 *   code: '15', name: 'Date', valueKind: 'date', column: 'text', availability: 'ready',
 *   write(value, _field, ctx) { … return value; }, // never called with null, undefined or ""
 * });
 */
export function defineFieldType(spec: FieldTypeSpec): FieldType {
  const { storedWhenEmpty = null, write: statedWrite, ...stated } = spec;
  // A computed type is written by the system only: a value sent for it is refused, naming the field.
  const write: FieldType['write'] =
    statedWrite ??
    (spec.computed
      ? (_value, _field, ctx) => {
          throw badFieldValue(ctx.label, `a ${spec.name} field is computed by the system and cannot be written`);
        }
      : undefined);
  const readOnly = spec.readOnly ?? false;
  const storage = spec.storage ?? (spec.column === null ? 'none' : 'column');
  return {
    ...stated,
    storage,
    readOnly,
    canBeTitle: spec.canBeTitle ?? false,
    canBeRequired: spec.canBeRequired ?? (!readOnly && storage !== 'none'),
    indexable: spec.indexable ?? (spec.column !== null && spec.column !== 'json'),
    prepare: spec.prepare ?? keepConfig,
    read: spec.read ?? storedOrNull,
    isEmpty: spec.isEmpty ?? isNull,
    ...(write && {
      write: (value, field, ctx) => (value === null || value === undefined || value === '' ? storedWhenEmpty : write(value, field, ctx)),
    }),
  };
}
