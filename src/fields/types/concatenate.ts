import { defineFieldType } from '../define-field-type.js';
import { noReferences } from '../no-references.js';
import type { ComputationInput, FieldMeta } from '../field-type.js';
import { referencedKeys, replaceReferences } from '../computed/field-references.js';
import { AppError } from '../../shared/app-error.js';

const NO_REFERENCES = noReferences();

/** Value kinds whose text follows from the stored value alone (no member, department, region or record names to look up: types with a `referenceKind` are refused). */
const TEXT_KINDS = new Set(['text', 'number', 'boolean', 'date', 'datetime', 'time', 'choices']);

/** A wire value as text: lists joined with ", ", options by their text. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(textOf).filter((t) => t !== '').join(', ');
  if (typeof value === 'object') return textOf((value as Record<string, unknown>).value ?? (value as Record<string, unknown>).name ?? '');
  return String(value);
}

function template(field: FieldMeta): string {
  return typeof field.config.expression === 'string' ? field.config.expression : '';
}

/**
 * 32 Concatenate: text joined from a template and fields of the same record, `config.expression` as
 * `"$title$ – $city$"`; each field shows as it reads (options by their text, numbers with their
 * precision, lists joined with ", "). Stored as text: filters and sorts as Text.
 */
export const concatenate = defineFieldType({
  code: '32',
  name: 'Concatenate',
  valueKind: 'text',
  column: 'text',
  availability: 'ready',
  readOnly: true,
  indexable: true,
  prepare(draft) {
    const config = { ...draft.config };
    if (typeof config.expression !== 'string' || config.expression === '') {
      throw AppError.invalidParameters(`field "${draft.name}": config.expression is required, e.g. "$title$ ($city$)"`);
    }
    return { options: [], config };
  },
  computed: {
    kind: 'row',
    referenceKeys: ['expression'],
    inputs: (field) => referencedKeys(template(field)),
    refusesInput: (input) => (TEXT_KINDS.has(input.fieldType.valueKind) && input.fieldType.storage === 'column' && !input.fieldType.referenceKind ? null : `a ${input.fieldType.name} field cannot be joined into text`),
    evaluate(field, inputs: Map<string, ComputationInput>) {
      const text = replaceReferences(template(field), (id) => {
        const input = inputs.get(id);
        return input ? textOf(input.field.fieldType.read(input.stored, input.field, NO_REFERENCES)) : '';
      });
      return text === '' ? null : text;
    },
  },
});
