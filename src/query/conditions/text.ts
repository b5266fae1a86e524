import { sql, type Expression, type SqlBool } from 'kysely';
import { AppError } from '../../shared/app-error.js';
import { anyOf, allOf, isNotNull, isNull, operandList, orEmpty, type ConditionInput, type ConditionKind } from './condition-kind.js';

/** A pattern for LIKE that matches `text` literally: %, _ and the escape character itself are escaped. */
export function literalPattern(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function textOperands(input: ConditionInput): string[] {
  return operandList(input).map((value) => {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw AppError.invalidValue(`${input.label}: operator ${input.condition.operator} takes text, got ${JSON.stringify(value)?.slice(0, 40)}`);
  });
}

/** The column as text: auto numbers are integers and are matched by their digits. */
function textColumn(input: ConditionInput): Expression<unknown> {
  return input.field.columnType === 'text' ? input.column : sql`CAST(${input.column} AS TEXT)`;
}

/**
 * Longest text a matching operator (contains, startswith, …) or a search word takes. SQLite refuses
 * LIKE patterns over 50,000 bytes; this keeps every pattern well under that on both engines alike.
 */
export const MAX_MATCH_LENGTH = 5_000;

/** Refuses match text over MAX_MATCH_LENGTH characters, naming where it was. */
export function checkMatchLength(text: string, where: string): string {
  if (text.length > MAX_MATCH_LENGTH) throw AppError.invalidValue(`${where}: text to match is at most ${MAX_MATCH_LENGTH} characters, got ${text.length}`);
  return text;
}

function like(input: ConditionInput, pattern: (text: string) => string): Array<Expression<SqlBool>> {
  const column = textColumn(input);
  return textOperands(input).map((text) => input.dialect.likeFolded(column, pattern(literalPattern(checkMatchLength(text, input.label)))));
}

function equal(input: ConditionInput): Array<Expression<SqlBool>> {
  const column = textColumn(input);
  return textOperands(input).map((text) => input.dialect.equalsFolded(column, text));
}

const contains = (text: string) => `%${text}%`;
const startsWith = (text: string) => `${text}%`;
const endsWith = (text: string) => `%${text}`;

/**
 * Text-like fields (Text, Phone, Email, AutoNumber as text, …): case-insensitive matching on both
 * engines. A list of values means any of them, except for `concurrent`, which needs all; negative
 * operators hold for empty values too.
 */
export const textConditions: ConditionKind = {
  operators: {
    eq: (input) => anyOf(equal(input)),
    ne: (input) => orEmpty(input.column, anyOf(equal(input))),
    contains: (input) => anyOf(like(input, contains)),
    concurrent: (input) => allOf(like(input, contains)),
    notcontains: (input) => orEmpty(input.column, anyOf(like(input, contains))),
    startswith: (input) => anyOf(like(input, startsWith)),
    notstartswith: (input) => orEmpty(input.column, anyOf(like(input, startsWith))),
    endswith: (input) => anyOf(like(input, endsWith)),
    notendswith: (input) => orEmpty(input.column, anyOf(like(input, endsWith))),
    isempty: isNull,
    isnotempty: isNotNull,
  },
};
