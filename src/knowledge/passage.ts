/**
 * Passages: the pieces of text a knowledge base is searched in. A record source gives one passage
 * per record (the chosen fields as `Field: value` lines, split when long); a document gives one per
 * chunk of its structure (headings, paragraphs, pages), overlapping a little so that an answer cut
 * in two is found in one of them.
 */

/** Where a passage came from, as search results report it. */
export type PassageSource =
  | { type: 'record'; knowledgeId: string; sourceId: string; worksheetId: string; rowId: string; fieldIds: string[]; title: string; chunkIndex: number }
  | { type: 'document'; knowledgeId: string; sourceId: string; documentId: string; title: string; chunkIndex: number };

/** A passage to store, with its vector. */
export interface PassageInput {
  source: PassageSource;
  content: string;
  vector: Float32Array;
  /**
   * The text the full-text index holds, when not `content`: a record passage's values without
   * the field names, which every passage of its worksheet repeats (they would match every passage,
   * rank none, and make each search read the whole index).
   */
  keywordText?: string;
}

/** A stored passage as a search reads it back. `seq` is its storage key (FTS and vector rows use it). */
export interface StoredPassage {
  seq: number;
  source: PassageSource;
  content: string;
}

/** What a source's passages are replaced or removed by: all of a document, or one record of a worksheet source. */
export type PassageOwner = { knowledgeId: string; documentId: string } | { knowledgeId: string; sourceId: string; rowId: string };
