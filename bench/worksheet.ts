import type { Api } from './api.js';

/**
 * The bench worksheet: 14 fields of the common types, a title among them. W4 filters on `quantity`
 * and `status` and sorts by `price`; W5 groups by `status`; W11 searches the five text fields.
 */
/** The Status options, in order: `statusKeys[i]` is the key of `STATUS_OPTIONS[i]`. */
export const STATUS_OPTIONS = ['New', 'Open', 'Blocked', 'Done'];

const FIELD_DEFINITIONS = [
  { name: 'Title', alias: 'title', type: 'Text', isTitle: true },
  { name: 'Sequence', alias: 'sequence', type: 'Number' },
  { name: 'Price', alias: 'price', type: 'Number', precision: 2 },
  { name: 'Quantity', alias: 'quantity', type: 'Number' },
  { name: 'Status', alias: 'status', type: 'Dropdown', options: STATUS_OPTIONS.map((value) => ({ value })) },
  { name: 'Due', alias: 'due', type: 'Date' },
  { name: 'Logged at', alias: 'logged_at', type: 'DateTime' },
  { name: 'Approved', alias: 'approved', type: 'Checkbox' },
  { name: 'Contact', alias: 'contact', type: 'Email' },
  { name: 'Score', alias: 'score', type: 'Rating', max: 5 },
  { name: 'Description', alias: 'description', type: 'Text' },
  { name: 'Notes', alias: 'notes', type: 'Text' },
  { name: 'Category', alias: 'category', type: 'Text' },
  { name: 'Keywords', alias: 'keywords', type: 'Text' },
] as const;

export const FIELD_COUNT = FIELD_DEFINITIONS.length;

type Alias = (typeof FIELD_DEFINITIONS)[number]['alias'];

/** The text fields W11 searches, the title first. */
export const TEXT_ALIASES = ['title', 'description', 'notes', 'category', 'keywords'] as const satisfies readonly Alias[];

export interface BenchSheet {
  id: string;
  /** Field id by alias. */
  field: Record<Alias, string>;
  statusKeys: string[];
}

interface WorksheetOut {
  fields: Array<{ id: string; alias: string; options: Array<{ key: string }> }>;
}

export async function createBenchSheet(api: Api, name = 'Bench', recordLogs = true): Promise<BenchSheet> {
  const { worksheetId } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name, recordLogs, fields: FIELD_DEFINITIONS });
  const sheet = await api.call<WorksheetOut>('GET', `/v3/app/worksheets/${worksheetId}`);
  const field = Object.fromEntries(sheet.fields.map((f) => [f.alias, f.id])) as Record<Alias, string>;
  const statusKeys = sheet.fields.find((f) => f.alias === 'status')!.options.map((o) => o.key);
  if (sheet.fields.length !== FIELD_DEFINITIONS.length || statusKeys.length !== 4) throw new Error('the bench worksheet was not created as defined');
  return { id: worksheetId, field, statusKeys };
}

/** A deterministic spread in [0, 1) from a record number, so runs are comparable and sorts do real work. */
function spread(n: number, salt: number): number {
  let x = Math.imul(n ^ salt, 0x9e3779b1);
  x = Math.imul(x ^ (x >>> 15), 0x85ebca6b);
  x ^= x >>> 13;
  return (x >>> 0) / 2 ** 32;
}

/**
 * The words of the text fields. None holds another, none holds the search word, and the search
 * word is in no other text of a record (title, e-mail, option texts): the keyword search matches
 * substrings, so this keeps the expected matches exact.
 */
const WORDS = [
  'amber', 'basin', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'island', 'jetty',
  'kettle', 'lantern', 'meadow', 'north', 'orchard', 'pepper', 'quarry', 'river', 'saddle', 'timber',
  'upland', 'valley', 'willow', 'yarrow', 'zephyr', 'anchor', 'bramble', 'canyon', 'dune', 'estuary',
  'falcon', 'glacier', 'heron', 'inlet', 'juniper', 'kestrel', 'lagoon', 'mesa', 'nettle', 'osprey',
];

/** The word W11 searches for; in about `SEARCH_WORD_SHARE` of the records, in one of the four added text fields. */
export const SEARCH_WORD = 'marigold';
const SEARCH_WORD_SHARE = 0.02;

/** The facts about record number `n` that the read workloads check their answers against. */
export interface RecordFacts {
  /** In cents, so sums are exact. */
  priceCents: number;
  quantity: number;
  /** Index into `statusKeys`. */
  status: number;
  hasSearchWord: boolean;
}

export function recordFacts(n: number): RecordFacts {
  return {
    priceCents: Math.round(spread(n, 1) * 10_000_000),
    // 0..10,000, so that `quantity > 5000` holds for about half of the records.
    quantity: Math.floor(spread(n, 2) * 10_001),
    status: n % 4,
    hasSearchWord: spread(n, 97) < SEARCH_WORD_SHARE,
  };
}

/** Two to four words of the list; text field `j` of record `n` also gets the search word when it is its turn. */
function textOf(n: number, j: number, searchField: number): string {
  const count = 2 + Math.floor(spread(n, 20 + j) * 3);
  const words = Array.from({ length: count }, (_, k) => WORDS[Math.floor(spread(n, 30 + j * 8 + k) * WORDS.length)]);
  if (j === searchField) words.splice(1, 0, n % 2 === 0 ? SEARCH_WORD : 'Marigold');
  return words.join(' ');
}

const DAY_MS = 86_400_000;
const EPOCH_2024 = Date.UTC(2024, 0, 1);

/** The field values of record number `n`: every field set, values varying from record to record. */
export function recordFields(sheet: BenchSheet, n: number): Array<{ id: string; value: unknown }> {
  const f = sheet.field;
  const facts = recordFacts(n);
  const at = EPOCH_2024 + Math.floor(spread(n, 3) * 730 * DAY_MS);
  const searchField = facts.hasSearchWord ? Math.floor(spread(n, 98) * 4) : -1;
  return [
    { id: f.title, value: `Record ${n} – quarterly review of supplier ${n % 997}` },
    { id: f.sequence, value: n },
    { id: f.price, value: facts.priceCents / 100 },
    { id: f.quantity, value: facts.quantity },
    { id: f.status, value: [sheet.statusKeys[facts.status]] },
    { id: f.due, value: new Date(at).toISOString().slice(0, 10) },
    { id: f.logged_at, value: new Date(at + (n % 86_400) * 1000).toISOString() },
    { id: f.approved, value: n % 3 === 0 },
    { id: f.contact, value: `person${n}@example.com` },
    { id: f.score, value: n % 6 },
    { id: f.description, value: textOf(n, 0, searchField) },
    { id: f.notes, value: textOf(n, 1, searchField) },
    { id: f.category, value: textOf(n, 2, searchField) },
    { id: f.keywords, value: textOf(n, 3, searchField) },
  ];
}
