import { sql, type SqlBool } from 'kysely';
import type { FieldMeta } from '../../fields/field-type.js';
import type { ConditionKind, OperatorCompiler, OperatorName } from './condition-kind.js';

/** Negative operators and the positive one they deny over every looked-up value. */
const NEGATIONS: Partial<Record<OperatorName, OperatorName>> = {
  ne: 'eq',
  notin: 'in',
  notcontains: 'contains',
  notstartswith: 'startswith',
  notendswith: 'endswith',
  notbetween: 'between',
  notbelongsto: 'belongsto',
};

/** Source value kinds whose values a lookup can be compared by, one value at a time. */
const COMPARABLE = new Set(['text', 'number', 'date', 'datetime', 'time']);

/**
 * A lookup filters as its source field does, over the values it holds: a positive operator holds
 * when any looked-up value meets it (`EXISTS` over the JSON array's elements), a negative one when
 * none meets its positive counterpart (records without values included), and `isempty` /
 * `isnotempty` ask whether it holds any. Sources whose values are not single comparable values
 * (choices, members, check boxes…) filter by presence only. Operands are read as the source type
 * reads them (its code is kept in the lookup's config; option texts of a choice source are not known here).
 */
export function lookupConditions(source: FieldMeta, sourceKind: ConditionKind): ConditionKind {
  // A lookup without values is stored empty (null), never as an empty list.
  const present: OperatorCompiler = ({ column }) => sql<SqlBool>`${column} IS NOT NULL`;
  const operators: ConditionKind['operators'] = {
    isempty: (input) => sql<SqlBool>`NOT ${present(input)}`,
    isnotempty: present,
  };
  const comparable = COMPARABLE.has(source.fieldType.valueKind) && source.fieldType.storage === 'column';
  if (!comparable) return { operators };
  const numeric = source.fieldType.column === 'real' || source.fieldType.column === 'integer' || source.fieldType.column === 'timestamp';
  const anyValue = (compile: OperatorCompiler): OperatorCompiler => (input) => {
    const value = numeric ? sql`CAST(e.value AS ${sql.raw(input.dialect.columnType('real'))})` : sql`e.value`;
    const condition = compile({ ...input, column: value, field: { ...input.field, meta: source } });
    return sql<SqlBool>`EXISTS (SELECT 1 FROM ${input.dialect.jsonArrayElements(input.column)} AS e WHERE ${condition})`;
  };
  for (const [name, compile] of Object.entries(sourceKind.operators) as Array<[OperatorName, OperatorCompiler]>) {
    if (name === 'isempty' || name === 'isnotempty' || NEGATIONS[name]) continue;
    operators[name] = anyValue(compile);
  }
  for (const [negative, positive] of Object.entries(NEGATIONS) as Array<[OperatorName, OperatorName]>) {
    const compile = sourceKind.operators[positive];
    if (!compile || !sourceKind.operators[negative]) continue;
    operators[negative] = (input) => sql<SqlBool>`NOT ${anyValue(compile)(input)}`;
  }
  return { operators };
}
