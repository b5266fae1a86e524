import { describe, expect, it } from 'vitest';
import { COMMON_TERM_SHARE, distinctiveTerms, queryTerms, searchTerms } from '../../../src/knowledge/search-terms.js';
import { tsvectorLiteral } from '../../../src/knowledge/store/tsvector-keywords.js';
import { matchExpression } from '../../../src/knowledge/store/fts5-keywords.js';

describe('search terms (the words full text matches on both engines)', () => {
  it('folds case, Latin, Greek and Cyrillic diacritics and compatibility forms; splits on anything but letters and digits', () => {
    expect(searchTerms('Café: 3 Crème-BRÛLÉES, ﬁsh at example.com (3.14) İstanbul Ёлка')).toEqual(['cafe', '3', 'creme', 'brulees', 'fish', 'at', 'example', 'com', '3', '14', 'istanbul', 'елка']);
  });

  it('keeps the marks of other scripts, and pairs Han, kana and Hangul characters', () => {
    expect(searchTerms('हिन्दी')).toEqual(['हिन्दी']);
    expect(searchTerms('知识库 的 hello世界 カタカナ')).toEqual(['知识', '识库', '的', 'hello', '世界', 'カタ', 'タカ', 'カナ']);
  });

  it('leaves out terms over 64 characters', () => {
    expect(searchTerms(`short ${'x'.repeat(65)} ${'y'.repeat(64)}`)).toEqual(['short', 'y'.repeat(64)]);
  });

  it('drops common words from a query with others, once each', () => {
    expect(queryTerms('How do I reset my password? Password!')).toEqual(['reset', 'password']);
    expect(queryTerms('The Who')).toEqual(['the', 'who']);
    expect(queryTerms('?!')).toEqual([]);
  });

  it('leaves out terms too common to rank by, unless the query has no other', () => {
    const holding = (term: string) => ({ he: 41, said: 40, refund: 2 })[term] ?? 0;
    expect(COMMON_TERM_SHARE).toBe(0.4);
    expect(distinctiveTerms(['he', 'said', 'refund'], holding, 100)).toEqual(['said', 'refund']);
    expect(distinctiveTerms(['he'], holding, 100)).toEqual(['he']);
    expect(distinctiveTerms(['ghost'], holding, 0)).toEqual(['ghost']);
  });

  it('writes the engines’ index entries from the terms alone', () => {
    expect(tsvectorLiteral(['a', 'b', 'a', "it's"])).toBe("'a':1,3 'b':2 'it''s':4");
    expect(matchExpression(['6a1F-2'], ['reset', 'password'])).toBe('"k6a1f2\u00b7reset" OR "k6a1f2\u00b7password"');
  });
});
