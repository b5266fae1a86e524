import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * Knowledge bases (`src/knowledge/`, `modules/knowledge`).
 *
 * `knowledge_bases` keeps its embedder (`embedder`: JSON `EmbedderSpec`) so that passages and
 * queries are always embedded alike; `status` is `ready`, `indexing` (jobs of it are queued) or
 * `failed` (`error` says why). `knowledge_sources` are the worksheets it indexes, with the fields
 * (`field_ids`, JSON) each record's passage is built from, and the state of their full indexing
 * (`status` queued, indexing, ready or failed; `progress` records indexed of `total`). `knowledge_documents` are uploaded or
 * fetched documents, with their ingestion's `status` (queued, ingesting, ready, failed) and
 * `progress` (chunks embedded of `chunk_total`).
 *
 * `knowledge_passages` holds every passage, keyed by an engine-assigned `seq` that the full-text
 * and vector indexes refer to; `source_id` is the worksheet source or the document it came from,
 * `row_id` the record for record passages. The full-text and vector structures over it depend on
 * the engine's capabilities and are created below from the dialect's flags.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .createTable('knowledge_bases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('embedder', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_bases_app').on('knowledge_bases').columns(['app_id', 'created_at']).execute();

  await db.schema
    .createTable('knowledge_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('knowledge_id', 'text', (c) => c.notNull())
    .addColumn('worksheet_id', 'text', (c) => c.notNull())
    .addColumn('field_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ready'))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_sources_knowledge').on('knowledge_sources').columns(['knowledge_id']).execute();
  // The record writer's hook asks "which knowledge bases index this worksheet?" on every write.
  await db.schema.createIndex('knowledge_sources_worksheet').on('knowledge_sources').columns(['worksheet_id']).execute();

  await db.schema
    .createTable('knowledge_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('knowledge_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('origin_url', 'text')
    .addColumn('byte_size', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chunk_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_documents_knowledge').on('knowledge_documents').columns(['knowledge_id', 'created_at']).execute();

  await sql`
    CREATE TABLE knowledge_passages (
      seq ${sql.raw(dialect.linkSequenceColumn)},
      knowledge_id text NOT NULL,
      source_id text NOT NULL,
      source_type text NOT NULL,
      row_id text,
      field_ids text,
      chunk_index integer NOT NULL,
      title text NOT NULL,
      content text NOT NULL
    )`.execute(db);
  // Replacing one record's or one document's passages; counting a knowledge base's passages.
  await db.schema.createIndex('knowledge_passages_owner').on('knowledge_passages').columns(['knowledge_id', 'source_id', 'row_id']).execute();
  await fullTextIndex(db, dialect);
  await vectorColumn(db, dialect);
}

/**
 * The full-text index over each passage's folded terms (`src/knowledge/search-terms.ts`), which the
 * passage store computes: the engine's own parser never splits words, so the same words match on
 * both engines. FTS5: contentless (the terms are not the passage's text, and need no second copy),
 * deletable by rowid (`contentless_delete`), each term prefixed with its knowledge base
 * (`store/fts5-keywords.ts`); the `ascii` tokenizer splits at spaces, as the terms arrive already
 * folded and separated.
 * PostgreSQL: a `tsvector` column built from the same terms, with a GIN index.
 */
async function fullTextIndex(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.passageSearch.fullText === 'fts5') {
    await sql`CREATE VIRTUAL TABLE knowledge_passages_fts USING fts5(terms, content='', contentless_delete=1, tokenize='ascii')`.execute(db);
    // How many passages hold each term: a search leaves out terms too common to rank by.
    await sql`CREATE VIRTUAL TABLE knowledge_passages_vocab USING fts5vocab(knowledge_passages_fts, 'row')`.execute(db);
    return;
  }
  await sql`ALTER TABLE knowledge_passages ADD COLUMN terms tsvector`.execute(db);
  await sql`CREATE INDEX knowledge_passages_terms ON knowledge_passages USING gin (terms)`.execute(db);
}

/**
 * Vectors kept in a column of the passages (PostgreSQL): pgvector's `vector` when it could be
 * enabled, else `real[]`. sqlite-vec's `vec0` tables are made by the store when a vector size is
 * first used (the extension is loaded only then).
 */
async function vectorColumn(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const columnType = await dialect.passageSearch.vectorColumnType?.(db);
  if (columnType) await sql`ALTER TABLE knowledge_passages ADD COLUMN embedding ${sql.raw(columnType)}`.execute(db);
}
