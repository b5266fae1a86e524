import { PostgresDialect, sql, type SqlBool } from 'kysely';
import pg from 'pg';
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

// BIGINT holds epoch milliseconds and counters, all far below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * The server engine. A `schema` query parameter in the URL (`postgres://host/db?schema=tenant1`)
 * sets the search path, so that several installations (or test runs) can share one database.
 */
export function createPostgresDialect(url: string, poolSize = 10): SqlDialect {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: poolSize,
    ...(schema ? { options: `-c search_path="${schema.replace(/"/g, '')}"` } : {}),
  });
  return {
    label: `PostgreSQL (${parsed.host}${parsed.pathname}${schema ? `, schema ${schema}` : ''})`,
    kyselyDialect: new PostgresDialect({ pool }),
    // Rows as arrays, made objects by one constructor per column list (see row-reader.ts). The pool
    // is the query builder's: it is ended with it.
    rows: {
      read: async (text, values) => {
        const result = await pool.query<unknown[]>({ text, values: values as unknown[], rowMode: 'array' });
        const make = rowMaker(result.fields.map((field) => field.name));
        return result.rows.map(make);
      },
      close: async () => undefined,
    },
    maxParameters: 65535,
    // One fixed advisory-lock key for "Tabularium migrations", released at commit.
    analyzeTableSql: (table) => `ANALYZE "${table.replace(/"/g, '')}"`,
    migrationLockSql: 'SELECT pg_advisory_xact_lock(727001)',
    concurrentIndexBuild: true,
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
    jsonArrayContainsAll: (column, values) => sql<SqlBool>`(${column} ?& ${values}::text[])`,
    dateBucket(value, granularity, storedAs, timeZone) {
      const local = storedAs === 'day-text' ? sql`CAST(${value} AS date)` : sql`(to_timestamp(${value} / 1000.0) AT TIME ZONE ${timeZone})`;
      return sql<string>`to_char(${local}, ${sql.lit(BUCKET_FORMATS[granularity])})`;
    },
    classifyError(error): DriverFailure {
      const err = error as { code?: string; constraint?: string; detail?: string };
      if (err?.code === '23505') return { kind: 'unique', target: err.constraint ?? '' };
      if (err?.code === '40P01' || err?.code === '40001') return { kind: 'retry' };
      return { kind: 'other' };
    },
  };
}
