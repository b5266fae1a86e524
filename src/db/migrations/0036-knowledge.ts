import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * Knowledge bases (`src/knowledge/`, `modules/knowledge`).
 *
 * `knowledge_bases` keeps its embedder (`embedder`: JSON `EmbedderSpec`) so that passages and
 * queries are always embedded alike; `status` is `ready`, `indexing` (jobs of it are queued) or
 * `failed` (`error` says why). `knowledge_sources` are the worksheets it indexes, with the fields
 * (`field_ids`, JSON) each record's passage is built from. `knowledge_documents` are uploaded or
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
}
