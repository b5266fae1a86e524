import { expect } from 'vitest';
import type { ApiContext } from './api-harness.js';

/** A record as the API returns it. */
export interface WireRecord {
  id: string;
  fields: Array<{ id: string; value: unknown; type: string; controlName: string }>;
  _createdBy: { accountId: string; fullname: string };
  _owner: { accountId: string; fullname: string };
  _updatedBy: { accountId: string; fullname: string };
  _createdAt: string;
  _updatedAt: string;
}

/** What `rows/pivot` answers. */
export interface PivotData {
  meta: { rows: Array<Record<string, unknown>>; columns: Array<Record<string, unknown>>; values: Array<Record<string, unknown>> };
  pivot: Array<{ rows: Record<string, unknown>; columns: Record<string, unknown>; values: Record<string, unknown> }>;
  summary?: Record<string, unknown>;
  totalPages: number;
  currentPage: number;
}

/** A worksheet made for a test, with its field ids by alias. */
export interface Sheet {
  id: string;
  field: Record<string, string>;
}

/** Creates a worksheet with the given fields and returns its id and field ids by alias. */
export async function makeSheet(ctx: ApiContext, name: string, fields: Array<Record<string, unknown>>): Promise<Sheet> {
  const created = await ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name, fields });
  expect(created.body.error_msg).toBe('');
  const id = created.body.data.worksheetId;
  const sheet = await ctx.call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${id}`);
  return { id, field: Object.fromEntries(sheet.body.data.fields.map((f) => [f.alias, f.id])) };
}

/** The value a record shows for a field; throws when the record does not show the field. */
export function valueOf(record: WireRecord, fieldId: string): unknown {
  const found = record.fields.find((f) => f.id === fieldId);
  if (!found) throw new Error(`record ${record.id} shows no field ${fieldId}`);
  return found.value;
}

/** The fields of the records tests: a required title, a unique code, a number, notes, an auto number. */
export const RECORD_TEST_FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
  { name: 'Code', alias: 'code', type: '2', isUnique: true },
  { name: 'Amount', alias: 'amount', type: '6' },
  { name: 'Notes', alias: 'notes', type: '2' },
  { name: 'Seq', alias: 'seq', type: '33' },
];

/** Creates one record through the API (asserting success) and returns its id. */
export async function createRecord(ctx: ApiContext, sheet: Sheet, fields: unknown[]): Promise<string> {
  const created = await ctx.call<{ id: string }>('POST', `/v3/app/worksheets/${sheet.id}/rows`, { fields });
  expect(created.body.error_msg).toBe('');
  return created.body.data.id;
}

/** Reads one record through the API (asserting success). */
export async function readRecord(ctx: ApiContext, sheet: Sheet, id: string): Promise<WireRecord> {
  const got = await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
  expect(got.body.error_msg).toBe('');
  return got.body.data;
}
