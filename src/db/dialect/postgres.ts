import { PostgresDialect, sql, type Kysely, type SqlBool } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { rowMaker } from '../row-reader.js';
import type { DateGranularity, DriverFailure, LogicalColumnType, SqlDialect } from './sql-dialect.js';

const COLUMN_TYPES: Record<LogicalColumnType, string> = {
  text: 'TEXT',
  integer: 'BIGINT',
  real: 'DOUBLE PRECISION',
  boolean: 'BOOLEAN',
  timestamp: 'BIGINT',
  json: 'JSONB',
};

/** to_char patterns of the date buckets; IYYY/IW are the ISO week-numbering year and week. */
const BUCKET_FORMATS: Record<DateGranularity, string> = {
  day: 'YYYY-MM-DD',
  week: 'IYYY-"W"IW',
  month: 'YYYY-MM',
  quarter: 'YYYY-"Q"Q',
  year: 'YYYY',
};

let driver: typeof pg | undefined;

/**
 * The column type of passage vectors: pgvector's `vector` when the extension is installed on the
 * server and may be enabled here, `real[]` otherwise. A refusal (not installed after all, no
 * privilege) is rolled back to a savepoint, so that the migration's transaction goes on.
 */
async function pgvectorOrArray(db: Kysely<unknown>): Promise<string> {
  const available = await sql<{ found: number }>`SELECT 1 AS found FROM pg_available_extensions WHERE name = 'vector'`.execute(db);
  if (available.rows.length > 0) {
    await sql`SAVEPOINT enable_pgvector`.execute(db);
    try {
      await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db);
      await sql`RELEASE SAVEPOINT enable_pgvector`.execute(db);
    } catch {
      await sql`ROLLBACK TO SAVEPOINT enable_pgvector`.execute(db);
    }
  }
  const type = await sql<{ found: string | null }>`SELECT to_regtype('vector')::text AS found`.execute(db);
  return type.rows[0]?.found ? 'vector' : 'real[]';
}

/**
 * node-postgres, loaded when a PostgreSQL database is opened: an embedded (SQLite) server never
 * holds it (about 1 MB of heap). `require`, as it is CommonJS and opening a database is synchronous.
 */
function postgresDriver(): typeof pg {
  if (driver) return driver;
  driver = createRequire(import.meta.url)('pg') as typeof pg;
  // BIGINT holds epoch milliseconds and counters, all far below 2^53: read them as numbers.
  driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number(value));
  driver.types.setTypeParser(driver.types.builtins.NUMERIC, (value) => Number(value));
  return driver;
}

/** How many read statements get a name by default (`PG_NAMED_READS`). */
const NAMED_READS = 200;
/** How many texts read once are remembered, waiting for a second read. */
const SEEN_ONCE = 2_000;

/**
 * Names for the row reader's statements read more than once, the first `limit` of them.
 * PostgreSQL parses and plans a named statement once per connection, an unnamed one on every read
 * (for a get by id, that was about a fifth of the request: W3 3,646 -> 4,658 req/s); names are never
 * taken back (the driver keeps them per connection), so their number is bounded. A pgbouncer before
 * 1.21 in transaction mode does not keep a connection's prepared statements: `limit` 0 names none.
 */
function statementNamer(limit: number): (text: string) => string | undefined {
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  return (text) => {
    const name = names.get(text);
    if (name !== undefined || names.size >= limit) return name;
    if (!seenOnce.has(text)) {
      if (seenOnce.size >= SEEN_ONCE) seenOnce.clear();
      seenOnce.add(text);
      return undefined;
    }
    seenOnce.delete(text);
    const given = `tabularium_read_${names.size + 1}`;
    names.set(text, given);
    return given;
  };
}

/**
 * The server engine. A `schema` query parameter in the URL (`postgres://host/db?schema=tenant1`)
 * sets the search path, so that several installations (or test runs) can share one database.
 */
export function createPostgresDialect(url: string, poolSize = 10, namedReads = NAMED_READS): SqlDialect {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const pool = new (postgresDriver().Pool)({
    connectionString: parsed.toString(),
    max: poolSize,
    ...(schema ? { options: `-c search_path="${schema.replace(/"/g, '')}"` } : {}),
  });
  const statementName = statementNamer(namedReads);
  return {
    label: `PostgreSQL (${parsed.host}${parsed.pathname}${schema ? `, schema ${schema}` : ''})`,
    kyselyDialect: new PostgresDialect({ pool }),
    // Rows as arrays, made objects by one constructor per column list (see row-reader.ts). The pool
    // is the query builder's: it is ended with it.
    rows: {
      read: async (text, values) => {
        const name = statementName(text);
        const result = await pool.query<unknown[]>({ ...(name ? { name } : {}), text, values: values as unknown[], rowMode: 'array' });
        const make = rowMaker(result.fields.map((field) => field.name));
        return result.rows.map(make);
      },
      close: async () => undefined,
    },
    recordNumbers: {
      assignedByEngine: true,
      columnType: 'BIGINT GENERATED BY DEFAULT AS IDENTITY',
      continueAfterLargestSql: (table) => {
        const quoted = `"${table.replace(/"/g, '')}"`;
        return `SELECT setval(pg_get_serial_sequence('${quoted}', '_autoid'), COALESCE((SELECT MAX(_autoid) FROM ${quoted}), 0) + 1, false)`;
      },
    },
    linkSequenceColumn: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
    maxParameters: 65535,
    // One fixed advisory-lock key for "Tabularium migrations", released at commit.
    analyzeTableSql: (table) => `ANALYZE "${table.replace(/"/g, '')}"`,
    migrationLockSql: 'SELECT pg_advisory_xact_lock(727001)',
    lockRowsSql: (table, sortedIds) => sql`SELECT id FROM ${sql.table(table)} WHERE id IN (${sql.join(sortedIds)}) ORDER BY id COLLATE "C" FOR UPDATE`,
    concurrentIndexBuild: true,
    skipLocked: true,
    rowTableSuffix: '',
    indexNullsFirst: ' NULLS FIRST',
    columnType: (type) => COLUMN_TYPES[type],
    encode(type, value) {
      if (value === null || value === undefined) return null;
      if (type === 'json') return JSON.stringify(value);
      return value;
    },
    decode(_type, raw) {
      return raw === undefined ? null : raw;
    },
    likeFolded: (text, pattern) => sql<SqlBool>`lower(${text}) LIKE lower(${pattern}) ESCAPE '\\'`,
    equalsFolded: (text, value) => sql<SqlBool>`lower(${text}) = lower(${value})`,
    jsonArrayContainsAny: (column, values) => sql<SqlBool>`(${column} ?| ${values}::text[])`,
    jsonArrayContainsAnyOf: (column, subquery) => sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${column}) AS held(id) WHERE held.id IN (${subquery}))`,
    jsonArrayElements: (column) => sql`LATERAL jsonb_array_elements_text(${column})`,
    jsonArrayContainsAll: (column, values) => sql<SqlBool>`(${column} ?& ${values}::text[])`,
    dateBucket(value, granularity, storedAs, timeZone) {
      const local = storedAs === 'day-text' ? sql`CAST(${value} AS date)` : sql`(to_timestamp(${value} / 1000.0) AT TIME ZONE ${timeZone})`;
      return sql<string>`to_char(${local}, ${sql.lit(BUCKET_FORMATS[granularity])})`;
    },
    passageSearch: {
      fullText: 'tsvector',
      vectors: 'column',
      loadVectorExtension: () => undefined,
      vectorColumnType: pgvectorOrArray,
      changeIdColumn: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
      // Advisory-lock key for "knowledge vector changes", released at commit.
      serialChangesSql: 'SELECT pg_advisory_xact_lock(727002)',
    },
    classifyError(error): DriverFailure {
      const err = error as { code?: string; constraint?: string; detail?: string };
      if (err?.code === '23505') return { kind: 'unique', target: err.constraint ?? '' };
      if (err?.code === '40P01' || err?.code === '40001') return { kind: 'retry' };
      return { kind: 'other' };
    },
  };
}
