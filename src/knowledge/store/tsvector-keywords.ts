import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import { distinctiveTerms } from '../search-terms.js';
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
    const bases = sql.join(knowledgeIds);
    const any = sql`CAST(${terms.map(lexeme).join(' | ')} AS tsquery)`;
    const one = (term: string) => sql`CAST(${lexeme(term)} AS tsquery)`;
    // ts_rank knows no document frequencies: each term is weighted by its inverse document frequency
    // in the bases searched (as bm25 does on SQLite), so that a rare word outweighs a common one.
    const counted = await sql<Record<string, number | string>>`
      SELECT ${sql.join(terms.map((term, i) => sql`COUNT(*) FILTER (WHERE p.terms @@ ${one(term)}) AS ${sql.ref(`df${i}`)}`))}
      FROM knowledge_passages p WHERE p.knowledge_id IN (${bases}) AND p.terms @@ ${any}`.execute(db);
    const row = counted.rows[0] ?? {};
    const total = (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM knowledge_passages WHERE knowledge_id IN (${bases})`.execute(db)).rows[0]?.n;
    const n = Number(total ?? 0);
    const df = new Map(terms.map((term, i) => [term, Number(row[`df${i}`] ?? 0)]));
    // Terms too common to rank by are left out, as on SQLite (`distinctiveTerms`).
    const kept = distinctiveTerms(terms, (term) => df.get(term) ?? 0, n);
    const weighted = kept.map((term) => sql`${Math.log(1 + (n - df.get(term)! + 0.5) / (df.get(term)! + 0.5))} * ts_rank(p.terms, ${one(term)})`);
    const found = await sql<{ seq: number | string; score: number }>`
      SELECT p.seq, ${sql.join(weighted, sql` + `)} AS score
      FROM knowledge_passages p
      WHERE p.knowledge_id IN (${bases}) AND p.terms @@ CAST(${kept.map(lexeme).join(' | ')} AS tsquery)
      ORDER BY score DESC, p.seq LIMIT ${limit}`.execute(db);
    // score / (1 + score) is in [0, 1), as bm25 is scaled on SQLite.
    return found.rows.map((r) => ({ seq: Number(r.seq), score: Number(r.score) / (1 + Number(r.score)) }));
  },
};
