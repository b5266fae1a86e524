import type { PassageInput } from './passage.js';

/**
 * A record's passages: its indexed fields as `Field name: value` lines (empty values left out), one
 * passage per record unless the lines are longer than `RECORD_CHUNK` characters, when they are
 * split between lines (a single longer line is cut, with `RECORD_OVERLAP` characters repeated).
 * The full-text index holds the values without the names (`PassageInput.keywordText`).
 */

export const RECORD_CHUNK = 1200;
export const RECORD_OVERLAP = 150;

/** One indexed field of a record: its id, name and value as text. */
export interface RecordCell {
  fieldId: string;
  name: string;
  text: string;
}

interface Line {
  content: string;
  keywords: string;
  fieldIds: string[];
}

/** A long line in pieces of at most RECORD_CHUNK characters, each repeating the end of the one before. */
function cut(line: Line): Line[] {
  if (line.content.length <= RECORD_CHUNK) return [line];
  const pieces: Line[] = [];
  for (let start = 0; start < line.content.length; start += RECORD_CHUNK - RECORD_OVERLAP) {
    const content = line.content.slice(start, start + RECORD_CHUNK);
    pieces.push({ content, keywords: content, fieldIds: line.fieldIds });
    if (start + RECORD_CHUNK >= line.content.length) break;
  }
  return pieces;
}

/** Lines packed into chunks of at most RECORD_CHUNK characters. */
function pack(lines: Line[]): Line[] {
  const packed: Line[] = [];
  let current: Line | null = null;
  for (const line of lines.flatMap(cut)) {
    if (current && current.content.length + 1 + line.content.length <= RECORD_CHUNK) {
      current = { content: `${current.content}\n${line.content}`, keywords: `${current.keywords}\n${line.keywords}`, fieldIds: [...new Set([...current.fieldIds, ...line.fieldIds])] };
      packed[packed.length - 1] = current;
    } else {
      current = line;
      packed.push(line);
    }
  }
  return packed;
}

/** A record passage's text, where it sits among the record's passages, and the fields its text (title included) comes from. */
export type RecordPassageText = Pick<PassageInput, 'content' | 'keywordText'> & { title: string; chunkIndex: number; fieldIds: string[] };

/**
 * The texts of a record's passages (without vectors): none when every indexed value is empty.
 * `title` is the record's title text if its title field is indexed, else its first indexed value;
 * each passage names the fields its text and its title come from (`fieldIds`), which is what a
 * search checks the caller may read.
 * @example recordPassageTexts([{ fieldId: 'f1', name: 'Name', text: 'ACME' }], 'f1') // [{ content: 'Name: ACME', keywordText: 'ACME', title: 'ACME', chunkIndex: 0, fieldIds: ['f1'] }]
 */
export function recordPassageTexts(cells: readonly RecordCell[], titleFieldId: string | null): RecordPassageText[] {
  const filled = cells.filter((cell) => cell.text.trim() !== '');
  if (filled.length === 0) return [];
  const titleCell = filled.find((cell) => cell.fieldId === titleFieldId) ?? filled[0]!;
  const title = titleCell.text.slice(0, 200);
  return pack(filled.map((cell) => ({ content: `${cell.name}: ${cell.text}`, keywords: cell.text, fieldIds: [cell.fieldId] }))).map((chunk, chunkIndex) => ({
    content: chunk.content,
    keywordText: chunk.keywords,
    title,
    chunkIndex,
    fieldIds: chunk.fieldIds.includes(titleCell.fieldId) ? chunk.fieldIds : [titleCell.fieldId, ...chunk.fieldIds],
  }));
}
