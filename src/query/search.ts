import { sql, type Expression, type SqlBool } from 'kysely';
import { AppError } from '../shared/app-error.js';
import type { FieldMeta } from '../fields/field-type.js';
import type { SqlDialect } from '../db/dialect/sql-dialect.js';
import type { FilterScope } from './compile-filter.js';
import { checkMatchLength, literalPattern } from './conditions/text.js';
import { predicateOf, type RowPredicate } from './row-predicate.js';

/** More words than this is not a search but a document. */
const MAX_SEARCH_WORDS = 20;

/** The words of a search: split on white space; several words must all match. */
function wordsOf(search: string): string[] {
  const words = search.trim().split(/\s+/u).filter((w) => w !== '');
  for (const word of words) checkMatchLength(word, 'search');
  if (words.length > MAX_SEARCH_WORDS) throw AppError.invalidValue(`search: at most ${MAX_SEARCH_WORDS} words, got ${words.length}`);
  return words;
}

/**
 * Whether a text column contains `text` anywhere, case-insensitively (folded alike on both engines);
 * `where` names the parameter when the text is too long to match (10002).
 * @example containsText(dialect, sql.ref('message'), 'Invoice', 'search')
 */
export function containsText(dialect: SqlDialect, column: Expression<unknown>, text: string, where: string): Expression<SqlBool> {
  return dialect.likeFolded(column, `%${literalPattern(checkMatchLength(text, where))}%`);
}

/** Where one word may match in one field: its text, or the text of its options. */
function fieldMatches(scope: FilterScope, field: FieldMeta, word: string): Expression<SqlBool> | null {
  const type = field.fieldType;
  const column = sql.ref(field.id);
  if (type.valueKind === 'text' && type.column) {
    const text = type.column === 'text' ? column : sql`CAST(${column} AS TEXT)`;
    return scope.dialect.likeFolded(text, `%${literalPattern(word)}%`);
  }
  if (type.valueKind === 'choices') {
    // Option texts live in the field's definition, not in the rows: find the matching keys here.
    const folded = word.toLowerCase();
    const keys = field.options.filter((o) => o.value.toLowerCase().includes(folded)).map((o) => o.key);
    if (keys.length === 0) return null;
    return type.column === 'json' ? scope.dialect.jsonArrayContainsAny(column, keys) : sql<SqlBool>`${column} IN (${sql.join(keys)})`;
  }
  return null;
}

/**
 * The keyword search of a list: every word must appear, case-insensitively, in at least one
 * text-like field or in the option text of a choice field. Null when the search is blank.
 * @example compileSearch(scope, 'acme berlin') // rows mentioning both words, in any fields
 */
export function compileSearch(scope: FilterScope, search: string | undefined): RowPredicate | null {
  if (search === undefined) return null;
  const words = wordsOf(search);
  if (words.length === 0) return null;
  const perWord = words.map((word) => {
    const matches = scope.schema.fields.filter((field) => !scope.hiddenFields?.has(field.id)).map((field) => fieldMatches(scope, field, word)).filter((m): m is Expression<SqlBool> => m !== null);
    return matches.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(matches, sql` OR `)})`;
  });
  return predicateOf(sql<SqlBool>`(${sql.join(perWord, sql` AND `)})`);
}
