import { describe, expect, it } from 'vitest';
import { RECORD_CHUNK, recordPassageTexts } from '../../../src/knowledge/record-passages.js';

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

  it('cuts a single line longer than the chunk size with an overlap', () => {
    const text = 'x'.repeat(RECORD_CHUNK * 2);
    const passages = recordPassageTexts([cell('a', 'A', text)], null);
    expect(passages.length).toBe(3);
    expect(passages.every((p) => p.content.length <= RECORD_CHUNK && p.fieldIds.join() === 'a')).toBe(true);
  });
});
