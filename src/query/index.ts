/** The read path's query language: filters compiled to predicates through the field types and the dialect. */
export { compileFilter, coversPivot, indexFor, pivotIndexFor, planFilter, type FilterScope, type IndexableColumns, type PlannedIndex } from './compile-filter.js';
export { EVERY_ROW, NO_ROW, bothOf, eitherOf, predicateOf, type RowPredicate } from './row-predicate.js';
export { fieldExists, filterOfFieldsNow, mapFilterFields } from './filter-fields.js';
export { OPERATORS, type OperatorName } from './conditions/condition-kind.js';
export { compileSearch, containsText } from './search.js';
export { regionsWithin } from './conditions/regions.js';
export { sortableSystemColumn, systemColumn, systemFieldName, type SystemColumn } from './query-fields.js';
