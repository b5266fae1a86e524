import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { AppError } from '../../shared/app-error.js';
import { linkSideOf } from '../../modules/records/links/link-side.js';
import { operandList, type ConditionInput, type ConditionKind, type OperatorCompiler } from './condition-kind.js';

/** Record ids a condition names: strings, or `{sid}` objects as relation values read. */
function recordIds(input: ConditionInput): string[] {
  return [
    ...new Set(
      operandList(input).map((value) => {
        const id = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).sid : value;
        if (typeof id !== 'string' || id === '') throw AppError.invalidValue(`${input.label}: expected record ids, got ${JSON.stringify(value)?.slice(0, 40)}`);
        return id;
      }),
    ),
  ];
}

/**
 * The live links of the filtered row, as the FROM and WHERE of a subquery: the relation's link
 * table joined to the related worksheet's live records, correlated with the outer row by its id.
 * The related worksheet is noted, as a read of its records (its records version then keys cached totals too).
 */
function liveLinks(input: ConditionInput, only: string[] | null): RawBuilder<unknown> {
  const side = linkSideOf(input.field.meta!);
  input.relatedWorksheets.add(side.relatedWorksheetId);
  const other = sql.ref(`l.${side.other}`);
  const restriction = only ? sql` AND ${other} IN (${sql.join(only)})` : sql``;
  return sql`FROM ${sql.table(side.table)} AS l JOIN ${sql.table(side.relatedTable)} AS r ON r.id = ${other} AND r._deleted_at IS NULL WHERE ${sql.ref(`l.${side.own}`)} = ${sql.ref(`${input.rowTable}.id`)}${restriction}`;
}

const linksAny: OperatorCompiler = (input) => sql<SqlBool>`EXISTS (SELECT 1 ${liveLinks(input, recordIds(input))})`;
const linksNone: OperatorCompiler = (input) => sql<SqlBool>`NOT EXISTS (SELECT 1 ${liveLinks(input, recordIds(input))})`;

/**
 * Relations: `eq` and `in` mean "relates to any of these records", `ne` and `notin` "to none of
 * them" (records relating to nothing included), `concurrent` "to all of them"; `isempty` relates to
 * no live record. Deleted related records (in the recycle bin) do not count.
 */
export const linkConditions: ConditionKind = {
  operators: {
    eq: linksAny,
    in: linksAny,
    ne: linksNone,
    notin: linksNone,
    concurrent: (input) => {
      const ids = recordIds(input);
      return sql<SqlBool>`(SELECT COUNT(*) ${liveLinks(input, ids)}) = ${ids.length}`;
    },
    isempty: (input) => sql<SqlBool>`NOT EXISTS (SELECT 1 ${liveLinks(input, null)})`,
    isnotempty: (input) => sql<SqlBool>`EXISTS (SELECT 1 ${liveLinks(input, null)})`,
  },
};

/** Sub-tables: whether the record has live child records, nothing more (the public table gives them these two). */
export const linkPresenceConditions: ConditionKind = {
  operators: { isempty: linkConditions.operators.isempty, isnotempty: linkConditions.operators.isnotempty },
};
