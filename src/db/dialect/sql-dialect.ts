import type { RowReader } from '../row-reader.js';
import type { Dialect, Expression, Kysely, RawBuilder, SqlBool } from 'kysely';

/** The storage kinds a field type can ask for; each engine maps them to its own column type. */
export type LogicalColumnType = 'text' | 'integer' | 'real' | 'boolean' | 'timestamp' | 'json';

/** The periods a pivot groups dates by. */
export type DateGranularity = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** How a date column holds its value: `YYYY-MM-DD` text (Date) or epoch milliseconds (DateTime). */
export type StoredDate = 'day-text' | 'epoch-ms';

/** What a driver error meant, when it meant something we report to the client. */
export type DriverFailure =
  | { kind: 'unique'; target: string }
  /** The engine chose this transaction as the one to give way (deadlock, serialization): run it again. */
  | { kind: 'retry' }
  | { kind: 'other' };

/**
 * How an engine indexes knowledge passages (`src/knowledge/store/`): the structures migration 0036
 * builds beside `knowledge_passages` and the passage store reads. Code asks these flags, never the
 * engine's name.
 */
export interface PassageSearch {
  /**
   * The full-text index of the passages' folded terms (`src/knowledge/search-terms.ts`): `fts5`, a
   * contentless FTS5 table `knowledge_passages_fts` ranked by bm25 (SQLite); `tsvector`, a
   * `tsvector` column `terms` of `knowledge_passages` with a GIN index, ranked by `ts_rank`
   * (PostgreSQL).
   */
  readonly fullText: 'fts5' | 'tsvector';
  /**
   * Where passage vectors live: `vec0`, sqlite-vec virtual tables `knowledge_vectors_<size>`, one per
   * vector size, made when first needed (SQLite); `column`, an `embedding` column of
   * `knowledge_passages`, pgvector's `vector` where the extension could be enabled when migration
   * 0036 ran and `real[]` (searched by an exact scan in SQL) otherwise (PostgreSQL).
   */
  readonly vectors: 'vec0' | 'column';
  /**
   * Loads the vector extension into the engine's connection (once; later calls do nothing). Every
   * statement naming a `vec0` table needs it first. Loaded on first use, not at start, so that a
   * server without knowledge bases never holds it. A no-op where nothing is loaded.
   */
  loadVectorExtension(): void;
  /**
   * For `column` vectors, in migration 0036: enables the engine's vector type if the server has it
   * (PostgreSQL: `CREATE EXTENSION IF NOT EXISTS vector`, given up quietly where it is not installed
   * or not allowed) and returns the column type to keep vectors in (`vector` or `real[]`). Null for
   * `vec0`.
   */
  readonly vectorColumnType: ((db: Kysely<unknown>) => Promise<string>) | null;
  /**
   * The column type of `knowledge_vector_changes.id` (migration 0038): a key the engine assigns that
   * never repeats, even after every row was deleted (SQLite's AUTOINCREMENT; an identity column).
   */
  readonly changeIdColumn: string;
  /**
   * Run by a transaction before it appends to `knowledge_vector_changes`, so that such transactions
   * commit in the order of the ids they took (a reader that has seen id N has seen every id below
   * it): an advisory lock held to the commit on PostgreSQL. Null where writers are serial already
   * (SQLite has one writer).
   */
  readonly serialChangesSql: string | null;
}

/**
 * Everything in which the two engines differ. Code outside `db/` asks this interface;
 * it never imports a driver and never compares an engine's name.
 */
export interface SqlDialect {
  /** For log lines and the health report only. */
  readonly label: string;
  /** The Kysely dialect that talks to the engine. */
  readonly kyselyDialect: Dialect;
  /**
   * The engine's fast path for reads outside any transaction (`row-reader.ts`), or null where reads
   * must go through the query builder's connection.
   */
  readonly rows: RowReader | null;
  /** The engine's column type for a logical type. */
  columnType(type: LogicalColumnType): string;
  /** A JS value (already validated) to the driver's parameter for that column type. */
  encode(type: LogicalColumnType, value: unknown): unknown;
  /** A driver value back to JS. */
  decode(type: LogicalColumnType, raw: unknown): unknown;
  /** Classifies a driver error. */
  classifyError(error: unknown): DriverFailure;
  /**
   * Appended to an index column so that the index serves `ORDER BY col ASC NULLS FIRST`
   * (empty values sort first ascending, last descending, on both engines).
   */
  readonly indexNullsFirst: string;
  /**
   * Appended to CREATE TABLE of row tables. SQLite stores them WITHOUT ROWID, clustered by the
   * (time-ordered) record id: a read by id is one B-tree lookup and inserts append.
   */
  readonly rowTableSuffix: string;
  /**
   * Taken inside the migration transaction so that processes starting together migrate one after
   * the other; null where the transaction itself serialises writers (SQLite).
   */
  readonly migrationLockSql: string | null;
  /**
   * Locks rows of a table for the rest of the transaction, in one order every writer shares (so that
   * two writers wait for each other rather than deadlock), where writers run at once (PostgreSQL:
   * `SELECT … ORDER BY id COLLATE "C" FOR UPDATE`, ids given in the same order); null where the
   * transaction itself serialises writers (SQLite).
   */
  readonly lockRowsSql: ((table: string, sortedIds: string[]) => RawBuilder<unknown>) | null;
  /**
   * Refreshes the planner's statistics of a table after an index is added, or null where the
   * planner needs none. Without them PostgreSQL may prefer a full scan and sort over a new index
   * until autovacuum gets round to the table, and SQLite a range index over the covering one that
   * serves the sort.
   */
  analyzeTableSql(table: string): string | null;
  /**
   * Whether indexes can be built without blocking writers (PostgreSQL's CREATE INDEX CONCURRENTLY,
   * which must run outside a transaction). SQLite builds them with a plain CREATE INDEX.
   */
  readonly concurrentIndexBuild: boolean;
  /**
   * Whether `SELECT … FOR UPDATE SKIP LOCKED` exists, so that several workers claim different queued
   * jobs at once (PostgreSQL). Without it (SQLite) the claiming UPDATE is serialised by the engine's
   * single writer, which gives the same guarantee.
   */
  readonly skipLocked: boolean;
  /**
   * How records get their number in their worksheet (`_autoid`, `autoid` on the wire). Where the
   * engine assigns it (PostgreSQL: an identity column, drawn from a sequence as rows are inserted, so
   * concurrent inserts hold no lock on a shared counter) the insert leaves the column out; elsewhere
   * (SQLite, whose writers are serialised anyway) the insert reserves them in the statement that
   * counts it (`row_counts.numbered`).
   */
  readonly recordNumbers: {
    assignedByEngine: boolean;
    /** The column's type in CREATE TABLE and ALTER TABLE ADD COLUMN. */
    columnType: string;
    /** Where the engine assigns numbers: the statement that makes the next number follow the table's largest. */
    continueAfterLargestSql(table: string): string | null;
  };
  /**
   * The key column of link tables (`seq` in CREATE TABLE): an integer the engine assigns, larger for
   * every new link, so that links read back in the order they were made.
   */
  readonly linkSequenceColumn: string;
  /** Largest number of bound parameters one statement may carry. */
  readonly maxParameters: number;
  /**
   * Whether `text` matches the LIKE `pattern` (escaped with `\`), both folded to lower case the
   * same way on every engine: Unicode letters, not only ASCII, and as PostgreSQL's `lower()` does
   * (SQLite gets a `tab_fold` function for it), by the fastest means the engine has.
   */
  likeFolded(text: Expression<unknown>, pattern: string): RawBuilder<SqlBool>;
  /** Whether `text` equals `value`, both case-folded as in `likeFolded`. */
  equalsFolded(text: Expression<unknown>, value: string): RawBuilder<SqlBool>;
  /** Whether a JSON array column holds at least one of `values` (strings). */
  jsonArrayContainsAny(column: Expression<unknown>, values: string[]): RawBuilder<SqlBool>;
  /** Whether a JSON array column holds at least one of the strings a subquery selects. */
  jsonArrayContainsAnyOf(column: Expression<unknown>, subquery: Expression<unknown>): RawBuilder<SqlBool>;
  /**
   * A JSON array column's elements as a table to join, one row per element with the element as text
   * in its column `value` (PostgreSQL: LATERAL, so that it may name the outer row's column).
   * @example LEFT JOIN <jsonArrayElements(r.tags)> AS e0 ON true // then e0.value
   */
  jsonArrayElements(column: Expression<unknown>): RawBuilder<unknown>;
  /** Whether a JSON array column holds every one of `values` (strings). */
  jsonArrayContainsAll(column: Expression<unknown>, values: string[]): RawBuilder<SqlBool>;
  /**
   * The period a date column's value falls in, as text: `2026-03-14` (day), `2026-W11` (ISO week,
   * Monday first), `2026-03` (month), `2026-Q1` (quarter), `2026` (year); NULL when the value is.
   * Epoch milliseconds are placed in `timeZone` (an IANA zone), exactly on both engines.
   * @example dialect.dateBucket(sql.ref('f_due'), 'month', 'day-text', 'UTC') // '2026-03-14' → '2026-03'
   */
  dateBucket(value: Expression<unknown>, granularity: DateGranularity, storedAs: StoredDate, timeZone: string): RawBuilder<string>;
  /** How knowledge passages are indexed for full-text and vector search (`PassageSearch`). */
  readonly passageSearch: PassageSearch;
}
