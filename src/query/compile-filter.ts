import { sql, type Expression, type SqlBool } from 'kysely';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import { AppError } from '../shared/app-error.js';
import type { WorksheetSchema } from '../modules/worksheets/worksheet-schema.js';
import { OPERATORS, type OperatorName, type QueryField } from './conditions/condition-kind.js';
import { parseFilter, type FilterCondition, type FilterNode } from './filter-tree.js';
import { fieldQuery, systemQuery } from './query-fields.js';
import { EVERY_ROW, predicateOf, type RowPredicate } from './row-predicate.js';

/** What a filter is compiled in: the worksheet, the engine, the time and who `user-self` is. */
export interface FilterScope {
  schema: WorksheetSchema;
  dialect: SqlDialect;
  now: number;
  timeZone: string;
  selfAccountId: string;
}

const KNOWN_OPERATORS: ReadonlySet<string> = new Set(OPERATORS);

function resolveField(scope: FilterScope, condition: FilterCondition): QueryField {
  const meta = scope.schema.byKey.get(condition.field);
  if (meta) {
    const field = fieldQuery(meta, condition.field);
    if (!field) throw AppError.invalidValue(`${condition.path}.field: "${meta.name}" is a ${meta.fieldType.name} field, which holds no value to filter by`);
    return field;
  }
  const system = systemQuery(condition.field);
  if (!system) throw AppError.invalidValue(`${condition.path}.field: no field "${condition.field.slice(0, 80)}" in this worksheet`);
  return system;
}

function compileCondition(scope: FilterScope, condition: FilterCondition): Expression<SqlBool> {
  const field = resolveField(scope, condition);
  const label = `${condition.path} "${field.name}"`;
  if (!KNOWN_OPERATORS.has(condition.operator)) {
    throw AppError.invalidValue(`${label}: unknown operator ${JSON.stringify(condition.operator.slice(0, 30))}; operators are ${OPERATORS.join(', ')}`);
  }
  const compile = field.kind.operators[condition.operator as OperatorName];
  if (!compile) {
    const typeName = field.meta ? field.meta.fieldType.name : field.name;
    const allowed = Object.keys(field.kind.operators);
    throw AppError.invalidValue(
      `${label}: operator ${condition.operator} is not allowed on ${typeName}${allowed.length ? `; use ${allowed.join(', ')}` : ''}`,
    );
  }
  return compile({
    condition,
    field,
    column: sql.ref(field.column),
    dialect: scope.dialect,
    label,
    now: scope.now,
    timeZone: scope.timeZone,
    selfAccountId: scope.selfAccountId,
  });
}

function compileNode(scope: FilterScope, node: FilterNode): Expression<SqlBool> | null {
  if (node.kind === 'condition') return compileCondition(scope, node);
  const parts = node.children.map((child) => compileNode(scope, child)).filter((part): part is Expression<SqlBool> => part !== null);
  // A group without conditions holds for every row, so it adds nothing to its parent.
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0];
  return sql<SqlBool>`(${sql.join(parts, sql.raw(node.logic === 'and' ? ' AND ' : ' OR '))})`;
}

/**
 * Compiles the filter of a request into the predicate reads take. Every problem is an error that
 * names the condition (`filter.children[1] "Amount": operator contains is not allowed on Number`);
 * nothing is dropped silently.
 * @example compileFilter(scope, { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'qty', operator: 'gt', value: 5 }] })
 */
export function compileFilter(scope: FilterScope, filter: unknown, path = 'filter'): RowPredicate {
  const tree = parseFilter(filter, path);
  const expression = tree ? compileNode(scope, tree) : null;
  return expression ? predicateOf(expression) : EVERY_ROW;
}
