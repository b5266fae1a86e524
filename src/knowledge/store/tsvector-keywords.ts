import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import type { Candidate, KeywordIndex } from './indexes.js';

/**
 * Full text on PostgreSQL: the `tsvector` column `terms` of `knowledge_passages` (GIN index,
 * migration 0036), written as a literal of the already folded terms with their positions, so that
 * PostgreSQL's parser and dictionaries (which split `example.com` or `3.14` as one word, and differ
 * by locale) never see the text: the same words match as on SQLite.
 */

/** tsvector keeps positions up to 16383, at most 256 per lexeme. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;

/** A lexeme quoted for tsvector and tsquery input (`'` doubled, `\` escaped). */
function lexeme(term: string): string {
  return `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * The tsvector literal of terms: each distinct term with the positions it is at.
 * @example tsvectorLiteral(['a', 'b', 'a']) // "'a':1,3 'b':2"
 */
export function tsvectorLiteral(terms: readonly string[]): string {
  const positions = new Map<string, number[]>();
  terms.forEach((term, i) => {
    const at = positions.get(term) ?? [];
    if (at.length < MAX_POSITIONS) at.push(Math.min(i + 1, MAX_POSITION));
    positions.set(term, at);
  });
  return [...positions].map(([term, at]) => `${lexeme(term)}:${[...new Set(at)].join(',')}`).join(' ');
}

export const tsvectorKeywords: KeywordIndex = {
  rowColumns: [{ name: 'terms', value: (passage) => sql`CAST(${tsvectorLiteral(passage.terms)} AS tsvector)` }],
  add: async () => undefined,
  remove: async () => undefined,
  async search(db: Executor, knowledgeIds: readonly string[], terms: readonly string[], limit: number): Promise<Candidate[]> {
    if (terms.length === 0 || knowledgeIds.length === 0) return [];
    const query = terms.map(lexeme).join(' | ');
    // Normalisation 32 is rank / (rank + 1): in [0, 1), as bm25 is scaled on SQLite.
    const found = await sql<{ seq: number | string; score: number }>`
      SELECT p.seq, ts_rank(p.terms, q, 32) AS score
      FROM knowledge_passages p, CAST(${query} AS tsquery) AS q
      WHERE p.knowledge_id IN (${sql.join(knowledgeIds)}) AND p.terms @@ q
      ORDER BY score DESC, p.seq LIMIT ${limit}`.execute(db);
    return found.rows.map((row) => ({ seq: Number(row.seq), score: Number(row.score) }));
  },
};
