import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/**
 * `knowledge_vector_changes`: every passage vector stored or removed, in commit order, so that each
 * process's in-memory vector index (`src/knowledge/store/cached-vectors.ts`) can catch up with
 * writes made by any process by reading the rows after the last id it applied. A stored vector has
 * its base and size (`knowledge_id`, `dims`); a removal has only the passage's `seq` (both null).
 * Rows older than an hour are swept (`sweepVectorChanges`); a process that fell further behind
 * drops its index and reloads it.
 */
export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await sql`
    CREATE TABLE knowledge_vector_changes (
      id ${sql.raw(dialect.passageSearch.changeIdColumn)},
      seq BIGINT NOT NULL,
      knowledge_id TEXT,
      dims INTEGER,
      created_at BIGINT NOT NULL
    )`.execute(db);
  await db.schema.createIndex('knowledge_vector_changes_created').on('knowledge_vector_changes').column('created_at').execute();
}
