import { chunkText, DEFAULT_CHUNK_SIZE, type ChunkSize } from './spans.js';

/**
 * A record as passages: the chosen fields as `Name: value` lines, in the order given, fields with
 * a blank value left out (a record with none has no passage). Usually the whole record is one
 * passage. A longer one is split between lines, each passage as full as the chunk size allows; a
 * single field longer than a chunk is cut by `chunkText` (sentences, words, with overlap), each
 * piece again as `Name: …`, so that no passage loses the name of what it says.
 * Each passage lists the fields it holds, so that a search can leave out a passage holding a field
 * the caller may not read while still finding the record's other passages.
 */

export interface RecordField {
  fieldId: string;
  /** The field's name as users see it. */
  name: string;
  /** The value as text (the record's `cellText`). */
  text: string;
}

export interface RecordPassage {
  content: string;
  /** The fields whose values the passage holds, in field order. */
  fieldIds: string[];
}

/**
 * @example recordPassages([{ fieldId: 'f1', name: 'Customer', text: 'Acme' }, { fieldId: 'f2', name: 'Status', text: 'Paid' }])
 * // [{ content: 'Customer: Acme\nStatus: Paid', fieldIds: ['f1', 'f2'] }]
 */
export function recordPassages(fields: readonly RecordField[], chunkSize: ChunkSize = DEFAULT_CHUNK_SIZE): RecordPassage[] {
  const lines = fields.flatMap((field) => {
    const value = field.text.trim();
    return value === '' ? [] : [{ fieldId: field.fieldId, prefix: `${field.name}: `, value, text: `${field.name}: ${value}` }];
  });
  if (lines.length === 0) return [];
  const whole = lines.map((line) => line.text).join('\n');
  // The common case, and the one ingestion speed (W14) depends on: no cutting to do.
  if (whole.length <= chunkSize.size) return [{ content: whole, fieldIds: lines.map((line) => line.fieldId) }];

  const passages: RecordPassage[] = [];
  let open: { texts: string[]; fieldIds: string[]; length: number } | null = null;
  const close = () => {
    if (open) passages.push({ content: open.texts.join('\n'), fieldIds: open.fieldIds });
    open = null;
  };
  for (const line of lines) {
    if (line.text.length > chunkSize.size) {
      close();
      // The name is repeated on every piece: the pieces share the room that it leaves.
      const room = { size: Math.max(chunkSize.size - line.prefix.length, Math.ceil(chunkSize.size / 2)), overlap: chunkSize.overlap };
      for (const piece of chunkText(line.value, room)) passages.push({ content: line.prefix + piece, fieldIds: [line.fieldId] });
      continue;
    }
    if (open && open.length + 1 + line.text.length > chunkSize.size) close();
    open ??= { texts: [], fieldIds: [], length: -1 };
    open.texts.push(line.text);
    open.fieldIds.push(line.fieldId);
    open.length += 1 + line.text.length;
  }
  close();
  return passages;
}
