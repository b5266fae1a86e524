import { describe, expect, it } from 'vitest';
import { documentPassages } from '../../../src/knowledge/chunking/document-passages.js';
import { recordPassages } from '../../../src/knowledge/chunking/record-passages.js';
import type { DocumentBlock, ParsedDocument } from '../../../src/knowledge/documents/document.js';

/** Documents and records as passages: sections, titles, headings alone, long records and fields. */

function doc(blocks: DocumentBlock[], title = 'Handbook'): ParsedDocument {
  return { title, mediaType: 'text/markdown', blocks };
}

const heading = (...path: string[]): DocumentBlock => ({ kind: 'heading', headingPath: path, text: path.at(-1)! });
const paragraph = (text: string, ...path: string[]): DocumentBlock => ({ kind: 'paragraph', headingPath: path, text });

function sentenceText(count: number, topic: string): string {
  return Array.from({ length: count }, (_, i) => `${topic} sentence ${i} explains one more detail of the rule.`).join(' ');
}

describe('documentPassages', () => {
  it('gives no passage for an empty document', () => {
    expect(documentPassages(doc([]))).toEqual([]);
  });

  it('gives one passage per section, titled by its heading path, the heading in its text', () => {
    const passages = documentPassages(
      doc([
        paragraph('Welcome to the handbook.'),
        heading('Refunds'),
        paragraph('Refunds are paid within 14 days.', 'Refunds'),
        heading('Refunds', 'Exceptions'),
        paragraph('Sale items are final.', 'Refunds', 'Exceptions'),
        { kind: 'list', headingPath: ['Refunds', 'Exceptions'], text: '- gift cards\n- downloads' },
        heading('Shipping'),
        paragraph('We ship worldwide.', 'Shipping'),
      ]),
    );
    expect(passages).toEqual([
      { title: 'Handbook', content: 'Welcome to the handbook.' },
      { title: 'Refunds', content: 'Refunds\n\nRefunds are paid within 14 days.' },
      { title: 'Refunds › Exceptions', content: 'Exceptions\n\nSale items are final.\n\n- gift cards\n- downloads' },
      { title: 'Shipping', content: 'Shipping\n\nWe ship worldwide.' },
    ]);
  });

  it('joins a heading without text of its own to the next section, titled by the deeper heading', () => {
    const passages = documentPassages(doc([heading('Guide'), heading('Guide', 'Install'), paragraph('Run npm install.', 'Guide', 'Install')]));
    expect(passages).toEqual([{ title: 'Guide › Install', content: 'Guide\n\nInstall\n\nRun npm install.' }]);
  });

  it('keeps a document of headings alone as one passage, titled where it begins', () => {
    const passages = documentPassages(doc([heading('Contents'), heading('Contents', 'Part one'), heading('Contents', 'Part two'), heading('Appendix')]));
    expect(passages).toEqual([{ title: 'Contents', content: 'Contents\n\nPart one\n\nPart two\n\nAppendix' }]);
  });

  it('gives each PDF page its own passages, titled with the page', () => {
    const passages = documentPassages({
      title: 'Annual report',
      mediaType: 'application/pdf',
      blocks: [
        { kind: 'page', headingPath: [], text: 'Revenue grew.', page: 1 },
        { kind: 'page', headingPath: [], text: 'Costs fell.', page: 3 },
      ],
    });
    expect(passages).toEqual([
      { title: 'Annual report, page 1', content: 'Revenue grew.' },
      { title: 'Annual report, page 3', content: 'Costs fell.' },
    ]);
  });

  it('cuts a long section into overlapping passages that all carry its title, never mixing sections', () => {
    const passages = documentPassages(
      doc([heading('Policy'), paragraph(sentenceText(60, 'Refund'), 'Policy'), heading('Other'), paragraph('Short.', 'Other')]),
    );
    const policy = passages.filter((p) => p.title === 'Policy');
    expect(policy.length).toBeGreaterThan(2);
    for (const passage of policy) {
      expect(passage.content.length).toBeLessThanOrEqual(1200);
      expect(passage.content).not.toContain('Short.');
    }
    // The second passage starts with a sentence from the last 150 characters of the first.
    const firstSentence = policy[1]!.content.split(/(?<=\.) /)[0]!;
    const at = policy[0]!.content.lastIndexOf(firstSentence);
    expect(at).toBeGreaterThan(0);
    expect(policy[0]!.content.length - at).toBeLessThanOrEqual(150);
    expect(passages.at(-1)).toEqual({ title: 'Other', content: 'Other\n\nShort.' });
  });

  it('takes the chunk size it is given', () => {
    const passages = documentPassages(doc([paragraph(sentenceText(10, 'Tiny'))]), { size: 200, overlap: 0 });
    expect(passages.length).toBeGreaterThan(2);
    for (const passage of passages) expect(passage.content.length).toBeLessThanOrEqual(200);
  });
});

describe('recordPassages', () => {
  const field = (fieldId: string, name: string, text: string) => ({ fieldId, name, text });

  it('makes one passage of Name: value lines, leaving blank fields out', () => {
    expect(recordPassages([field('f1', 'Customer', 'Acme Ltd'), field('f2', 'Notes', '  '), field('f3', 'Status', ' Paid ')])).toEqual([
      { content: 'Customer: Acme Ltd\nStatus: Paid', fieldIds: ['f1', 'f3'] },
    ]);
  });

  it('gives no passage for a record whose chosen fields are all blank, or for no fields', () => {
    expect(recordPassages([field('f1', 'Notes', ''), field('f2', 'Tags', '\n')])).toEqual([]);
    expect(recordPassages([])).toEqual([]);
  });

  it('splits a long record between lines, each passage listing its own fields', () => {
    const fields = Array.from({ length: 6 }, (_, i) => field(`f${i}`, `Field ${i}`, `${'value '.repeat(60)}`.trim()));
    const passages = recordPassages(fields);
    // Each line is about 370 characters: three fit in 1,200.
    expect(passages.map((p) => p.fieldIds)).toEqual([
      ['f0', 'f1', 'f2'],
      ['f3', 'f4', 'f5'],
    ]);
    for (const passage of passages) {
      expect(passage.content.length).toBeLessThanOrEqual(1200);
      expect(passage.content.split('\n').every((line) => /^Field \d: value/.test(line))).toBe(true);
    }
  });

  it('cuts a field longer than a chunk into pieces that each repeat its name', () => {
    const passages = recordPassages([field('f1', 'Title', 'Contract 7'), field('f2', 'Body', sentenceText(50, 'Clause')), field('f3', 'Owner', 'Kim')]);
    expect(passages[0]).toEqual({ content: 'Title: Contract 7', fieldIds: ['f1'] });
    const body = passages.filter((p) => p.fieldIds[0] === 'f2');
    expect(body.length).toBeGreaterThan(2);
    for (const passage of body) {
      expect(passage.fieldIds).toEqual(['f2']);
      expect(passage.content).toMatch(/^Body: Clause sentence \d+/);
      expect(passage.content.length).toBeLessThanOrEqual(1200);
    }
    expect(passages.at(-1)).toEqual({ content: 'Owner: Kim', fieldIds: ['f3'] });
  });
});
