import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { DateGranularity, DriverFailure, LogicalColumnType, SqlDialect, StoredDate } from './sql-dialect.js';
import { STATEMENT_BUSY_TIMEOUT_MS, TurnTakingSqliteDialect } from './sqlite-turns.js';
import { createSqliteReader } from './sqlite-reader.js';
import { sqlitePassageSearch } from './sqlite-vector.js';

const COLUMN_TYPES: Record<LogicalColumnType, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  real: 'REAL',
  boolean: 'INTEGER',
  timestamp: 'INTEGER',
  json: 'TEXT',
};

const STATEMENT_CACHE_SIZE = 256;
/** Each connection's page cache in megabytes, unless the caller says (`SQLITE_CACHE_MB`). */
const DEFAULT_CACHE_MB = 64;
const DDL = /^\s*(create|alter|drop)\b/i;

/**
 * Kysely prepares every statement anew; preparing costs as much as running a small query. This keeps
 * the most recent prepared statements by SQL text. DDL is never cached and empties the cache, so no
 * statement outlives a change of the tables it reads.
 */
function withStatementCache(database: Database.Database, onSchemaChange: () => void) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string): Database.Statement {
      if (DDL.test(text)) {
        cache.clear();
        onSchemaChange();
        return database.prepare(text);
      }
      const hit = cache.get(text);
      if (hit) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const statement = database.prepare(text);
      cache.set(text, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}

/**
 * Folding every value with a JavaScript function costs a call per row. SQLite's own LIKE and NOCASE
 * fold ASCII letters exactly as `tab_fold` does, and leave every other character as it is. For an
 * ASCII pattern the other characters of a text can only meet its wildcards, which match them
 * alike folded or not, unless they fold to an ASCII letter: of all Unicode, only U+0130 (İ, to i)
 * and U+212A (the Kelvin sign, to k) do. So only rows holding one of those two (found by GLOB, in C)
 * need `tab_fold`, and the OR gives exactly the rows of `tab_fold(text) LIKE tab_fold(pattern)`
 * (test/unit/sqlite-folding.test.ts checks this against every code point).
 */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
const FOLDS_TO_ASCII = '*[\u0130\u212a]*';

function foldText(text: string): string {
  let folded = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    // A few characters lower to two (İ → i̇); PostgreSQL keeps one, so keep the plain letter.
    folded += lower.length === char.length ? lower : lower[0];
  }
  return folded;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (`YYYY-MM-DD`) of epoch milliseconds in an IANA zone, daylight saving included. */
function localDay(millis: unknown, timeZone: unknown): string | null {
  if (typeof millis !== 'number' || typeof timeZone !== 'string') return null;
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(millis).map((part) => [part.type, part.value]));
  return `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`;
}

/**
 * Date buckets from a `YYYY-MM-DD` day. SQLite knows the ISO week (%G-W%V) since 3.46; the
 * quarter is (month + 2) / 3 in integer arithmetic.
 */
function dayBucket(value: Expression<unknown>, granularity: DateGranularity, storedAs: StoredDate, timeZone: string): RawBuilder<string> {
  const utc = timeZone === 'UTC' || timeZone === 'Etc/UTC';
  const day =
    storedAs === 'day-text' ? sql`${value}` : utc ? sql`date(${value} / 1000.0, 'unixepoch')` : sql`tab_local_day(${value}, ${timeZone})`;
  const buckets: Record<DateGranularity, () => RawBuilder<string>> = {
    day: () => sql<string>`${day}`,
    week: () => sql<string>`strftime('%G-W%V', ${day})`,
    month: () => sql<string>`substr(${day}, 1, 7)`,
    quarter: () => sql<string>`(substr(${day}, 1, 4) || '-Q' || ((CAST(substr(${day}, 6, 2) AS INTEGER) + 2) / 3))`,
    year: () => sql<string>`substr(${day}, 1, 4)`,
  };
  return buckets[granularity]();
}

/** The functions filters and pivots call, on every connection. */
function registerFunctions(connection: Database.Database): void {
  // SQLite's lower() folds ASCII only; PostgreSQL's folds Unicode. One JavaScript fold, code point by
  // code point (no context rules such as a final sigma), makes filters match alike on both engines.
  connection.function('tab_fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldText(text) : text));
  // SQLite has no time zone rules: the day of an instant in a zone other than UTC is computed here (pivot date buckets).
  connection.function('tab_local_day', { deterministic: true }, localDay);
}

/**
 * The embedded engine: one SQLite file in WAL mode, written on one connection and read on a
 * second, read-only one (`sqlite-reader.ts`).
 * @example createSqliteDialect('./data/tabularium.db')
 */
export function createSqliteDialect(file: string, cacheMb = DEFAULT_CACHE_MB): SqlDialect {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma(`busy_timeout = ${STATEMENT_BUSY_TIMEOUT_MS}`);
  database.pragma('foreign_keys = ON');
  // The planner chooses among a table's read indexes by their statistics (without them, a range
  // index can win over the covering one that serves the sort, at a hundred times the cost).
  // ANALYZE samples this many entries per index, so that it costs milliseconds on any size.
  database.pragma('analysis_limit = 1000');
  // Statistics of tables that grew or shrank much since they were gathered are refreshed at start.
  if (file !== ':memory:') database.pragma('optimize = 0x10002');
  // What both connections (the writer and the reader) get: the page cache and our functions.
  const prepareConnection = (connection: Database.Database) => {
    connection.pragma(`cache_size = ${-cacheMb * 1024}`);
    registerFunctions(connection);
  };
  prepareConnection(database);
  // An in-memory database has no second connection: its reads go through the query builder.
  const reader = file === ':memory:' ? null : createSqliteReader(file, prepareConnection);
  return {
    label: `SQLite (${file})`,
    kyselyDialect: new TurnTakingSqliteDialect({ database: withStatementCache(database, () => reader?.forgetStatements()) }, database),
    rows: reader,
    recordNumbers: { assignedByEngine: false, columnType: 'INTEGER', continueAfterLargestSql: () => null },
    // The rowid: one more than the largest, so a new link always sorts after the ones kept.
    linkSequenceColumn: 'INTEGER PRIMARY KEY',
    maxParameters: 32766,
    migrationLockSql: null,
    lockRowsSql: null,
    analyzeTableSql: (table) => `ANALYZE "${table.replace(/"/g, '')}"`,
    concurrentIndexBuild: false,
    skipLocked: false,
    rowTableSuffix: ' WITHOUT ROWID',
    indexNullsFirst: '',
    columnType: (type) => COLUMN_TYPES[type],
    encode(type, value) {
      if (value === null || value === undefined) return null;
      if (type === 'boolean') return value ? 1 : 0;
      if (type === 'json') return JSON.stringify(value);
      return value;
    },
    decode(type, raw) {
      if (raw === null || raw === undefined) return null;
      if (type === 'boolean') return raw === 1 || raw === true;
      if (type === 'json') return typeof raw === 'string' ? JSON.parse(raw) : raw;
      return raw;
    },
    likeFolded: (text, pattern) =>
      isAscii(pattern)
        ? sql<SqlBool>`(${text} LIKE ${pattern} ESCAPE '\\' OR (${text} GLOB ${FOLDS_TO_ASCII} AND tab_fold(${text}) LIKE ${foldText(pattern)} ESCAPE '\\'))`
        : sql<SqlBool>`tab_fold(${text}) LIKE ${foldText(pattern)} ESCAPE '\\'`,
    equalsFolded: (text, value) =>
      isAscii(value)
        ? sql<SqlBool>`(${text} = ${value} COLLATE NOCASE OR (${text} GLOB ${FOLDS_TO_ASCII} AND tab_fold(${text}) = ${foldText(value)}))`
        : sql<SqlBool>`tab_fold(${text}) = ${foldText(value)}`,
    jsonArrayContainsAny: (column, values) =>
      sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${column}) WHERE json_each.value IN (${sql.join(values)}))`,
    jsonArrayContainsAnyOf: (column, subquery) => sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${column}) WHERE json_each.value IN (${subquery}))`,
    jsonArrayElements: (column) => sql`json_each(${column})`,
    jsonArrayContainsAll: (column, values) =>
      sql<SqlBool>`(SELECT COUNT(DISTINCT json_each.value) FROM json_each(${column}) WHERE json_each.value IN (${sql.join(values)})) = ${sql.lit(new Set(values).size)}`,
    dateBucket: dayBucket,
    passageSearch: sqlitePassageSearch(database),
    classifyError(error): DriverFailure {
      const err = error as { code?: string; message?: string };
      if (err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        // "UNIQUE constraint failed: ws_<id>.<column>"
        const match = /UNIQUE constraint failed: ([^\s,]+)/.exec(err.message ?? '');
        return { kind: 'unique', target: match?.[1] ?? '' };
      }
      return { kind: 'other' };
    },
  };
}
