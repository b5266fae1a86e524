import { defineFieldType } from '../define-field-type.js';
import type { FieldMeta, FieldOption, FieldSortOrder, FieldType } from '../field-type.js';
import { prepareOptions } from './option-list.js';
import { badFieldValue, show } from './value-errors.js';

function findOption(field: FieldMeta, written: string): FieldOption | undefined {
  return (
    field.options.find((o) => !o.isDeleted && o.key === written) ??
    field.options.find((o) => !o.isDeleted && o.value === written)
  );
}

/**
 * A single choice sorts by where its option stands in the list ("Open" before "Done" because the
 * list says so, not because of keys or texts).
 */
function byOptionPosition(field: FieldMeta): FieldSortOrder {
  return { optionOrder: [...field.options].sort((a, b) => a.index - b.index).map((o) => o.key) };
}

/**
 * A choice type. Written as option keys (an array, or one key; the option's exact text is also
 * understood); read as `[{key, value}]`. Single choices are stored as the key, multiple as a JSON array.
 */
export function choiceKind(spec: { code: string; name: string; multiple: boolean }): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'choices',
    column: spec.multiple ? 'json' : 'text',
    availability: 'ready',
    // A list of several options is not indexable, so it cannot be sorted by at all.
    ...(spec.multiple ? {} : { sortOrder: byOptionPosition }),
    prepare(draft, previous) {
      const config = { ...draft.config };
      if (config.isColorOptions !== undefined) config.isColorOptions = config.isColorOptions === true || config.isColorOptions === 'true';
      return { options: prepareOptions(draft, previous), config };
    },
    write(value, field, ctx) {
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0) return null;
      const keys: string[] = [];
      for (const item of list) {
        if (typeof item !== 'string') throw badFieldValue(ctx.label, `expected option keys, got ${show(item)}`);
        const option = findOption(field, item);
        if (!option) throw badFieldValue(ctx.label, `unknown option ${show(item)}`);
        if (!keys.includes(option.key)) keys.push(option.key);
      }
      if (!spec.multiple && keys.length > 1) throw badFieldValue(ctx.label, `takes one option, got ${keys.length}`);
      return spec.multiple ? keys : keys[0];
    },
    read(stored, field) {
      if (stored === null) return [];
      const keys = Array.isArray(stored) ? (stored as string[]) : [stored as string];
      return keys.map((key) => ({ key, value: field.options.find((o) => o.key === key)?.value ?? '' }));
    },
    isEmpty: (stored) => stored === null || (Array.isArray(stored) && stored.length === 0),
  });
}
