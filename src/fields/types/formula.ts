import { defineFieldType } from '../define-field-type.js';
import type { ComputationInput, FieldMeta } from '../field-type.js';
import { compileFormula } from '../computed/formula-expression.js';
import { referencedKeys } from '../computed/field-references.js';
import { preparePrecision, readDecimal } from '../kinds/number-kind.js';
import { AppError } from '../../shared/app-error.js';

/** Value kinds a formula computes with: numbers, dates (as epoch milliseconds) and check boxes (1 or 0). */
const NUMERIC_KINDS = new Set(['number', 'date', 'datetime', 'boolean']);

/** An input's stored value as the number a formula sees; empty numbers are 0, empty dates make date arithmetic empty. */
function numericValue({ field, stored }: ComputationInput): number {
  const kind = field.fieldType.valueKind;
  if (kind === 'boolean') return stored === true ? 1 : 0;
  if (kind === 'date') return typeof stored === 'string' ? Date.parse(`${stored}T00:00:00Z`) : NaN;
  if (kind === 'datetime') return typeof stored === 'number' ? stored : NaN;
  if (kind === 'choices') return scoreOf(field, stored);
  return typeof stored === 'number' ? stored : 0;
}

/** A choice's number: the sum of the scores of the chosen options (an option without a score counts 0). */
function scoreOf(field: FieldMeta, stored: unknown): number {
  const keys = stored === null || stored === undefined ? [] : Array.isArray(stored) ? stored : [stored];
  return keys.reduce<number>((sum, key) => sum + (field.options.find((o) => o.key === key)?.score ?? 0), 0);
}

export function formulaExpression(field: FieldMeta): string {
  return typeof field.config.expression === 'string' ? field.config.expression : '';
}

/**
 * 31 Formula: a number computed from numeric, date and check box fields of the same record,
 * `config.expression` as `ROUND($price$ * $qty$, 2)` (see `computed/formula-expression.ts` for what
 * it may hold). Stored as a number, so it filters and sorts as one; read like a Number, with
 * `precision`.
 */
export const formula = defineFieldType({
  code: '31',
  name: 'Formula',
  valueKind: 'number',
  column: 'real',
  availability: 'ready',
  readOnly: true,
  indexable: true,
  prepare(draft) {
    const { config } = preparePrecision(draft);
    if (typeof config.expression !== 'string' || config.expression.trim() === '') {
      throw AppError.invalidParameters(`field "${draft.name}": config.expression is required, e.g. "$price$ * $quantity$"`);
    }
    return { options: [], config: { ...config, expression: config.expression.trim() } };
  },
  read: readDecimal,
  computed: {
    kind: 'row',
    referenceKeys: ['expression'],
    inputs: (field) => referencedKeys(formulaExpression(field)),
    settle(field, inputs) {
      compileFormula(formulaExpression(field), `field "${field.name}"`, inputs.map((input) => input.id));
    },
    // A choice field counts as the sum of its chosen options' scores.
    refusesInput: (input) => ((NUMERIC_KINDS.has(input.fieldType.valueKind) || input.fieldType.valueKind === 'choices') && input.fieldType.storage === 'column' ? null : `a ${input.fieldType.name} field holds no number or date`),
    evaluate(field, inputs) {
      const compiled = compileFormula(formulaExpression(field), `field "${field.name}"`, [...inputs.keys()]);
      const values = new Map<string, number>();
      for (const [id, input] of inputs) values.set(id, numericValue(input));
      return compiled.evaluate(values);
    },
  },
});
