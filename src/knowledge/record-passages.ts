import { recordPassages, type RecordField } from './chunking/record-passages.js';
import type { PassageInput } from './passage.js';

/**
 * What indexing stores of a record's passages (`chunking/record-passages.ts` cuts them): each
 * passage's text, the full-text entry's text (its values without the `Name: ` prefixes, which every
 * passage of the worksheet repeats: they would match all of them and rank none), the record's title,
 * and the fields the passage's text and title come from (what a search checks the caller may read).
 */

/** A record passage's text, where it sits among the record's passages, and the fields its text (title included) comes from. */
export type RecordPassageText = Pick<PassageInput, 'content' | 'keywordText'> & { title: string; chunkIndex: number; fieldIds: string[] };

/** A passage's lines without the field names in front of them. */
function withoutNames(content: string, prefixes: readonly string[]): string {
  return content
    .split('\n')
    .map((line) => {
      const prefix = prefixes.find((p) => line.startsWith(p));
      return prefix ? line.slice(prefix.length) : line;
    })
    .join('\n');
}

/**
 * The texts of a record's passages (without vectors): none when every indexed value is empty.
 * `title` is the record's title text if its title field is indexed, else its first indexed value;
 * a passage holding neither names the title's field too.
 * @example recordPassageTexts([{ fieldId: 'f1', name: 'Name', text: 'ACME' }], 'f1') // [{ content: 'Name: ACME', keywordText: 'ACME', title: 'ACME', chunkIndex: 0, fieldIds: ['f1'] }]
 */
export function recordPassageTexts(cells: readonly RecordField[], titleFieldId: string | null): RecordPassageText[] {
  const passages = recordPassages(cells);
  if (passages.length === 0) return [];
  const filled = cells.filter((cell) => cell.text.trim() !== '');
  const titleCell = filled.find((cell) => cell.fieldId === titleFieldId) ?? filled[0]!;
  const title = titleCell.text.trim().slice(0, 200);
  const prefixes = filled.map((cell) => `${cell.name}: `);
  return passages.map((passage, chunkIndex) => ({
    content: passage.content,
    keywordText: withoutNames(passage.content, prefixes),
    title,
    chunkIndex,
    fieldIds: passage.fieldIds.includes(titleCell.fieldId) ? passage.fieldIds : [titleCell.fieldId, ...passage.fieldIds],
  }));
}
