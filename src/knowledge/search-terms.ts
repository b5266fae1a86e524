/**
 * The words full-text search matches, computed here rather than by each engine's parser, so that
 * the same words match on SQLite (FTS5) and PostgreSQL (`tsvector`): the index holds these terms,
 * separated by spaces, and a query is reduced to terms the same way.
 *
 * - Case is folded (`toLowerCase`, Unicode-wide).
 * - Diacritics are folded on Latin, Greek and Cyrillic letters (`café` matches `cafe`, `ё`
 *   matches `е`), as FTS5's default tokenizer does; marks of other scripts (Devanagari vowel signs,
 *   say) are part of their letters and kept. Compatibility forms are folded too (`ﬁ` is `fi`,
 *   full-width `Ａ` is `a`).
 * - A word is a run of letters, digits and marks; anything else separates words.
 * - Han, kana and Hangul, written without spaces, are indexed as overlapping pairs of characters
 *   (`知识库` gives `知识`, `识库`), the usual way to search them without a dictionary.
 * - No stemming: `invoices` does not match `invoice` here (stemming is per language); the built-in
 *   embedder's character trigrams bring such words together in vector and hybrid search.
 * - Terms longer than 64 characters (hashes, encoded data) are left out.
 */

const MAX_TERM = 64;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const FOLDED_MARKS = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/u;
const UNSPACED_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)|([^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/gu;

/** Text folded for matching: lower case, compatibility forms and Latin, Greek and Cyrillic diacritics folded. */
function fold(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(FOLDED_MARKS, '$1').normalize('NFC');
}

function pushTerm(terms: string[], term: string): void {
  if (term.length <= MAX_TERM) terms.push(term);
}

/** Overlapping character pairs of a run of Han, kana or Hangul (the run itself when it is one character). */
function pairs(run: string, terms: string[]): void {
  const chars = [...run];
  if (chars.length === 1) terms.push(run);
  for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
}

/**
 * The terms of a text, in order, repeats kept (term frequency counts in ranking).
 * @example searchTerms('Café: 3 Crème brûlées') // ['cafe', '3', 'creme', 'brulees']
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of fold(text).match(WORD) ?? []) {
    if (!UNSPACED.test(word)) {
      pushTerm(terms, word);
      continue;
    }
    for (const [, unspaced, other] of word.matchAll(UNSPACED_RUNS)) {
      if (unspaced) pairs(unspaced, terms);
      else if (other) pushTerm(terms, other);
    }
  }
  return terms;
}

/**
 * English words too common to tell passages apart. Left out of queries (not of the index) when the
 * query has other words: "how do I reset my password" searches `reset password`. Kept when they
 * are all the query has ("the who").
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our ' +
    'should so than that the their them then there these they this those to was we were what when where which who whom why will with ' +
    'would you your about any all am also after before between both each few more most other over same some such only own just very'
  ).split(' '),
);

/** Most distinct terms a query keeps (the first ones). */
export const MAX_QUERY_TERMS = 32;

/**
 * The distinct terms a query searches for, stop words left out when others remain.
 * @example queryTerms('How do I reset my password?') // ['reset', 'password']
 */
export function queryTerms(query: string): string[] {
  const distinct = [...new Set(searchTerms(query))];
  const meaningful = distinct.filter((term) => !STOP_WORDS.has(term));
  return (meaningful.length > 0 ? meaningful : distinct).slice(0, MAX_QUERY_TERMS);
}

/**
 * A query term in more than this share of the passages searched is left out when the query has
 * rarer terms: it tells passages apart too little to rank by (bm25 gives a term in 40 % of the
 * passages a fifth of a rare term's weight, and nearly nothing above half), and reading its entries
 * is most of the search's cost. Whatever the language: "he" or "said" in English text, "de" in French.
 */
export const COMMON_TERM_SHARE = 0.4;

/**
 * The terms worth searching for, given how many of the `passages` searched hold each.
 * @example distinctiveTerms(['he', 'refund'], (t) => (t === 'he' ? 900 : 3), 1000) // ['refund']
 */
export function distinctiveTerms(terms: readonly string[], holding: (term: string) => number, passages: number): string[] {
  const rare = terms.filter((term) => holding(term) <= COMMON_TERM_SHARE * passages);
  return rare.length > 0 ? rare : [...terms];
}
