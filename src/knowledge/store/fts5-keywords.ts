import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import { chunks, type Candidate, type IndexedPassage, type KeywordIndex } from './indexes.js';

/**
 * Full text on SQLite: the contentless FTS5 table `knowledge_passages_fts(kb, terms)` of migration
 * 0036, its rowid the passage's `seq`. `kb` holds the knowledge base as one token, so that a search
 * narrows to its bases inside the index; bm25 weighs that column 0 (`rankingSet`).
 */

/** The one-token form of a knowledge base id in the `kb` column. */
export function baseToken(knowledgeId: string): string {
  return `k${knowledgeId.toLowerCase().replace(/[^0-9a-z]/g, '')}`;
}

/** A term as an FTS5 string (terms hold letters, digits and marks only; quoting keeps any of them literal). */
function quoted(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * The MATCH expression: any of the bases, and any of the terms.
 * @example matchExpression(['a1'], ['reset', 'password']) // 'kb : ("ka1") AND terms : ("reset" OR "password")'
 */
export function matchExpression(knowledgeIds: readonly string[], terms: readonly string[]): string {
  return `kb : (${knowledgeIds.map((id) => quoted(baseToken(id))).join(' OR ')}) AND terms : (${terms.map(quoted).join(' OR ')})`;
}

export const fts5Keywords: KeywordIndex = {
  rowColumns: [],
  async add(trx: Executor, passages: readonly IndexedPassage[]) {
    for (const part of chunks(passages)) {
      const rows = part.map((p) => sql`(${p.seq}, ${baseToken(p.knowledgeId)}, ${p.terms.join(' ')})`);
      await sql`INSERT INTO knowledge_passages_fts (rowid, kb, terms) VALUES ${sql.join(rows)}`.execute(trx);
    }
  },
  async remove(trx: Executor, seqs: readonly number[]) {
    for (const part of chunks(seqs)) await sql`DELETE FROM knowledge_passages_fts WHERE rowid IN (${sql.join(part)})`.execute(trx);
  },
  async search(db: Executor, knowledgeIds: readonly string[], terms: readonly string[], limit: number): Promise<Candidate[]> {
    if (terms.length === 0 || knowledgeIds.length === 0) return [];
    // `rank` is bm25 with the weights set in migration 0036; FTS5 sorts by it without a second pass.
    const found = await sql<{ seq: number; rank: number }>`
      SELECT rowid AS seq, rank FROM knowledge_passages_fts WHERE knowledge_passages_fts MATCH ${matchExpression(knowledgeIds, terms)} ORDER BY rank LIMIT ${limit}`.execute(db);
    // bm25 is negative, more negative better: -bm25 / (1 - bm25) is in [0, 1), larger better.
    return found.rows.map((row) => ({ seq: Number(row.seq), score: -row.rank / (1 - row.rank) }));
  },
};
