import type { FieldMeta, FieldOption, FieldType } from '../field-type.js';
import { prepareOptions } from './option-list.js';
import { badFieldValue, show } from './value-errors.js';

function findOption(field: FieldMeta, written: string): FieldOption | undefined {
  return (
    field.options.find((o) => !o.isDeleted && o.key === written) ??
    field.options.find((o) => !o.isDeleted && o.value === written)
  );
}

/**
 * A choice type. Written as option keys (an array, or one key; the option's exact text is also
 * understood); read as `[{key, value}]`. Single choices are stored as the key, multiple as a JSON array.
 */
export function choiceKind(spec: { code: string; name: string; multiple: boolean }): FieldType {
  return {
    code: spec.code,
    name: spec.name,
    valueKind: 'choices',
    column: spec.multiple ? 'json' : 'text',
    availability: 'ready',
    canBeRequired: true,
    indexable: !spec.multiple,
    sortBy: 'optionOrder',
    prepare(draft, previous) {
      const config = { ...draft.config };
      if (config.isColorOptions !== undefined) config.isColorOptions = config.isColorOptions === true || config.isColorOptions === 'true';
      return { options: prepareOptions(draft, previous), config };
    },
    write(value, field, ctx) {
      if (value === null || value === undefined || value === '') return null;
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
  };
}
