import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import type { PassageSearch } from './sql-dialect.js';

/**
 * sqlite-vec (`vec0` virtual tables, SIMD distance functions), loaded into the writing connection
 * the first time a knowledge base needs it: a server that never uses knowledge bases never maps
 * the extension (W6, idle memory). Searches read through the same connection, so the read-only
 * one (`sqlite-reader.ts`) does without it.
 * @example const search = sqlitePassageSearch(database); search.loadVectorExtension();
 */
export function sqlitePassageSearch(database: Database.Database): PassageSearch {
  let loaded = false;
  return {
    fullText: 'fts5',
    vectors: 'vec0',
    loadVectorExtension() {
      if (loaded) return;
      // CommonJS entry, required when first needed: opening a database stays synchronous and light.
      const sqliteVec = createRequire(import.meta.url)('sqlite-vec') as { load(db: Database.Database): void };
      sqliteVec.load(database);
      loaded = true;
    },
    vectorColumnType: null,
    changeIdColumn: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    serialChangesSql: null,
  };
}
