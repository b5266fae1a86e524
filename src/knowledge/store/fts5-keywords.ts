import { sql } from 'kysely';
import type { Executor } from '../../db/connection.js';
import { distinctiveTerms } from '../search-terms.js';
import { chunks, type Candidate, type IndexedPassage, type KeywordIndex } from './indexes.js';

/**
 * Full text on SQLite: the contentless FTS5 table `knowledge_passages_fts(terms)` of migration 0036,
 * its rowid the passage's `seq`. Each term is indexed with its knowledge base in front of it
 * (`k65f…·invoice`), so that each base has term lists of its own: a search reads only its bases'
 * entries, where a separate base column would have to be intersected with every match (2.5 times
 * slower over 100,000 passages). bm25's document frequencies are then per base, as they should be.
 * Each passage also holds its base's prefix alone (`k65f…·`), so that the vocabulary table
 * `knowledge_passages_vocab` (fts5vocab) tells how many passages a base has beside how many hold each
 * term: terms too common to rank by are left out of a search (`distinctiveTerms`).
 */

/** The prefix of a base's terms: its id's letters and digits, and a middle dot (a token character of the `ascii` tokenizer). */
function basePrefix(knowledgeId: string): string {
  return `k${knowledgeId.toLowerCase().replace(/[^0-9a-z]/g, '')}\u00b7`;
}

/** A term as an FTS5 string (terms hold letters, digits and marks only; quoting keeps any of them literal). */
function quoted(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * The MATCH expression: any of the terms in any of the bases.
 * @example matchExpression(['a1'], ['reset', 'password']) // '"ka1·reset" OR "ka1·password"'
 */
export function matchExpression(knowledgeIds: readonly string[], terms: readonly string[]): string {
  return knowledgeIds.flatMap((id) => terms.map((term) => quoted(basePrefix(id) + term))).join(' OR ');
}

export const fts5Keywords: KeywordIndex = {
  rowColumns: [],
  async add(trx: Executor, passages: readonly IndexedPassage[]) {
    for (const part of chunks(passages)) {
      const rows = part.map((p) => {
        const prefix = basePrefix(p.knowledgeId);
        return sql`(${p.seq}, ${[prefix, ...p.terms.map((term) => prefix + term)].join(' ')})`;
      });
      await sql`INSERT INTO knowledge_passages_fts (rowid, terms) VALUES ${sql.join(rows)}`.execute(trx);
    }
  },
  async remove(trx: Executor, seqs: readonly number[]) {
    for (const part of chunks(seqs)) await sql`DELETE FROM knowledge_passages_fts WHERE rowid IN (${sql.join(part)})`.execute(trx);
  },
  async search(db: Executor, knowledgeIds: readonly string[], terms: readonly string[], limit: number): Promise<Candidate[]> {
    if (terms.length === 0 || knowledgeIds.length === 0) return [];
    const prefixes = knowledgeIds.map(basePrefix);
    const counted = await sql<{ term: string; doc: number }>`
      SELECT term, doc FROM knowledge_passages_vocab
      WHERE term IN (${sql.join([...prefixes, ...prefixes.flatMap((prefix) => terms.map((term) => prefix + term))])})`.execute(db);
    const holding = new Map(counted.rows.map((row) => [row.term, Number(row.doc)]));
    const passages = prefixes.reduce((sum, prefix) => sum + (holding.get(prefix) ?? 0), 0);
    const kept = distinctiveTerms(terms, (term) => prefixes.reduce((sum, prefix) => sum + (holding.get(prefix + term) ?? 0), 0), passages);
    // `rank` is bm25; FTS5 sorts by it without a second pass.
    const found = await sql<{ seq: number; rank: number }>`
      SELECT rowid AS seq, rank FROM knowledge_passages_fts WHERE knowledge_passages_fts MATCH ${matchExpression(knowledgeIds, kept)} ORDER BY rank LIMIT ${limit}`.execute(db);
    // bm25 is negative, more negative better: -bm25 / (1 - bm25) is in [0, 1), larger better.
    return found.rows.map((row) => ({ seq: Number(row.seq), score: -row.rank / (1 - row.rank) }));
  },
};
