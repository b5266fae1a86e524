import { defineFieldType } from '../define-field-type.js';
import type { FieldMeta, RelatedAggregation } from '../field-type.js';
import { checkRelatedSource } from '../computed/related-config.js';
import { preparePrecision, readDecimal } from '../kinds/number-kind.js';
import { show } from '../kinds/value-errors.js';
import { AppError } from '../../shared/app-error.js';

/** Aggregations by their public names (any case); FILLED and EMPTY count related records whose source is filled or empty. */
const AGGREGATIONS: Record<string, RelatedAggregation> = { COUNT: 'count', FILLED: 'filled', EMPTY: 'empty', SUM: 'sum', AVG: 'avg', MIN: 'min', MAX: 'max' };
/** Aggregations that compute with the source's numbers. */
const NUMERIC: ReadonlySet<RelatedAggregation> = new Set(['sum', 'avg', 'min', 'max']);

export function rollupAggregation(field: FieldMeta): RelatedAggregation {
  return AGGREGATIONS[String(field.config.aggregation ?? 'COUNT').toUpperCase()] ?? 'count';
}

/**
 * 37 Rollup: a number over the records a relation field relates to: COUNT of them, SUM, AVG, MIN or
 * MAX of a number field of theirs, or how many have it FILLED or EMPTY (`config.relationField`,
 * `config.sourceField`, `config.aggregation`). No cap on how many records it covers; records in the
 * recycle bin do not count. Stored as a number, so it filters and sorts as one; an empty SUM is 0,
 * an empty AVG, MIN or MAX is empty.
 */
export const rollup = defineFieldType({
  code: '37',
  name: 'Rollup',
  valueKind: 'number',
  column: 'real',
  availability: 'ready',
  readOnly: true,
  indexable: true,
  prepare(draft) {
    const { config } = preparePrecision(draft);
    const aggregation = String(config.aggregation ?? 'COUNT').toUpperCase();
    if (!(aggregation in AGGREGATIONS)) {
      throw AppError.invalidValue(`field "${draft.name}": config.aggregation must be one of ${Object.keys(AGGREGATIONS).join(', ')}, got ${show(config.aggregation)}`);
    }
    const withAggregation = { ...config, aggregation };
    checkRelatedSource({ ...draft, config: withAggregation }, aggregation !== 'COUNT');
    return { options: [], config: withAggregation };
  },
  read: readDecimal,
  computed: {
    kind: 'related',
    aggregation: rollupAggregation,
    refusesSource(source, field) {
      const aggregation = rollupAggregation(field);
      if (source.fieldType.storage !== 'column') return `a ${source.fieldType.name} field holds no value to roll up`;
      // A choice counts as the sum of its chosen options' scores.
      if (NUMERIC.has(aggregation) && source.fieldType.valueKind !== 'number' && source.fieldType.valueKind !== 'choices') {
        return `${aggregation.toUpperCase()} needs a number field (or a choice field: its scores), and "${source.name}" is ${source.fieldType.name}`;
      }
      return null;
    },
  },
});
