import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * Changing a knowledge base's embedder re-embeds it as a job (`modules/knowledge/reembed-job.ts`).
 *
 * `knowledge_bases.next_embedder` is the `EmbedderSpec` (JSON) being re-embedded to, null when
 * none; `reembed_progress` of `reembed_total` passages have their new vector; `reembed_error` says
 * why the last re-embedding failed (the base is `failed` until its embedder is set again).
 *
 * `knowledge_staged_vectors` holds the new embedder's vectors, one per passage (`seq`), beside the
 * serving ones until every passage has one; then one transaction moves them into the vector index
 * and stores the new spec. `embedding` is the vector as sqlite-vec takes it (float32 bytes) on
 * SQLite and `real[]` on PostgreSQL; null for a passage without words (it has no vector).
 * `vector_codes` is the same vector as the in-memory vector index keeps it (as
 * `knowledge_passages.vector_codes`, migration 0038), moved with it.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  // One column per statement: SQLite adds one at a time.
  await db.schema.alterTable('knowledge_bases').addColumn('next_embedder', 'text').execute();
  await db.schema.alterTable('knowledge_bases').addColumn('reembed_progress', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('knowledge_bases').addColumn('reembed_total', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('knowledge_bases').addColumn('reembed_error', 'text').execute();
  const vectorType = dialect.passageSearch.vectors === 'vec0' ? sql`blob` : sql`real[]`;
  await sql`
    CREATE TABLE knowledge_staged_vectors (
      seq bigint PRIMARY KEY,
      knowledge_id text NOT NULL,
      embedding ${vectorType},
      vector_codes bytea
    )`.execute(db);
  await db.schema.createIndex('knowledge_staged_vectors_knowledge').on('knowledge_staged_vectors').columns(['knowledge_id']).execute();
}
