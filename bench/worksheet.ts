import type { Api } from './api.js';

/** The bench worksheet: 10 fields of the common types, a title among them. */
const FIELD_DEFINITIONS = [
  { name: 'Title', alias: 'title', type: 'Text', isTitle: true },
  { name: 'Sequence', alias: 'sequence', type: 'Number' },
  { name: 'Price', alias: 'price', type: 'Number', precision: 2 },
  { name: 'Quantity', alias: 'quantity', type: 'Number' },
  { name: 'Status', alias: 'status', type: 'Dropdown', options: ['New', 'Open', 'Blocked', 'Done'].map((value) => ({ value })) },
  { name: 'Due', alias: 'due', type: 'Date' },
  { name: 'Logged at', alias: 'logged_at', type: 'DateTime' },
  { name: 'Approved', alias: 'approved', type: 'Checkbox' },
  { name: 'Contact', alias: 'contact', type: 'Email' },
  { name: 'Score', alias: 'score', type: 'Rating', max: 5 },
] as const;

type Alias = (typeof FIELD_DEFINITIONS)[number]['alias'];

export interface BenchSheet {
  id: string;
  /** Field id by alias. */
  field: Record<Alias, string>;
  statusKeys: string[];
}

interface WorksheetOut {
  fields: Array<{ id: string; alias: string; options: Array<{ key: string }> }>;
}

export async function createBenchSheet(api: Api): Promise<BenchSheet> {
  const { worksheetId } = await api.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Bench', fields: FIELD_DEFINITIONS });
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

const DAY_MS = 86_400_000;
const EPOCH_2024 = Date.UTC(2024, 0, 1);

/** The field values of record number `n`: every field set, values varying from record to record. */
export function recordFields(sheet: BenchSheet, n: number): Array<{ id: string; value: unknown }> {
  const f = sheet.field;
  const at = EPOCH_2024 + Math.floor(spread(n, 3) * 730 * DAY_MS);
  return [
    { id: f.title, value: `Record ${n} – quarterly review of supplier ${n % 997}` },
    { id: f.sequence, value: n },
    { id: f.price, value: Math.round(spread(n, 1) * 10_000_000) / 100 },
    { id: f.quantity, value: Math.floor(spread(n, 2) * 500) },
    { id: f.status, value: [sheet.statusKeys[n % sheet.statusKeys.length]] },
    { id: f.due, value: new Date(at).toISOString().slice(0, 10) },
    { id: f.logged_at, value: new Date(at + (n % 86_400) * 1000).toISOString() },
    { id: f.approved, value: n % 3 === 0 },
    { id: f.contact, value: `person${n}@example.com` },
    { id: f.score, value: n % 6 },
  ];
}
