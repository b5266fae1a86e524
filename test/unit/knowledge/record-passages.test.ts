import { describe, expect, it } from 'vitest';
import { recordPassageTexts } from '../../../src/knowledge/record-passages.js';
import { DEFAULT_CHUNK_SIZE } from '../../../src/knowledge/chunking/spans.js';

const RECORD_CHUNK = DEFAULT_CHUNK_SIZE.size;

const cell = (fieldId: string, name: string, text: string) => ({ fieldId, name, text });

describe("a record's passages", () => {
  it('is one passage of Field: value lines, empty values left out, titled by the title field', () => {
    expect(recordPassageTexts([cell('f1', 'Name', 'ACME'), cell('f2', 'Notes', ' '), cell('f3', 'City', 'Lyon')], 'f3')).toEqual([
      { content: 'Name: ACME\nCity: Lyon', keywordText: 'ACME\nLyon', title: 'Lyon', chunkIndex: 0, fieldIds: ['f1', 'f3'] },
    ]);
    expect(recordPassageTexts([cell('f1', 'Name', '')], 'f1')).toEqual([]);
  });

  it('splits between lines past the chunk size, each passage naming its fields and its title field', () => {
    const long = 'word '.repeat(200).trim();
    const passages = recordPassageTexts([cell('t', 'Title', 'Big'), cell('a', 'A', long), cell('b', 'B', long)], 't');
    expect(passages.map((p) => [p.chunkIndex, p.fieldIds, p.title])).toEqual([
      [0, ['t', 'a'], 'Big'],
      [1, ['t', 'b'], 'Big'],
    ]);
    expect(passages.every((p) => p.content.length <= RECORD_CHUNK)).toBe(true);
  });

  it('cuts a single value longer than the chunk size, each piece named, its keyword text without the name', () => {
    const text = 'word '.repeat(RECORD_CHUNK).trim();
    const passages = recordPassageTexts([cell('a', 'A', text)], null);
    expect(passages.length).toBeGreaterThan(4);
    expect(passages.every((p) => p.content.length <= RECORD_CHUNK && p.content.startsWith('A: word') && p.keywordText!.startsWith('word') && p.fieldIds.join() === 'a')).toBe(true);
    expect(passages.map((p) => p.chunkIndex)).toEqual(passages.map((_, i) => i));
  });
});
