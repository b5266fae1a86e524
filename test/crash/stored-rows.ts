import type { Api } from '../../bench/api.js';
import type { CrashSheet } from './crash-sheet.js';

/** A row of the crash worksheet as a client reads it back. */
export interface StoredRow {
  id: string;
  batch: string;
  /** The position in its batch, as read (a number field reads as a string). */
  n: number;
  /** '' when no update has set it. */
  marker: string;
}

export interface StoredRows {
  rows: StoredRow[];
  /** The list's `total`, the live-row count kept alongside every insert. */
  total: number;
}

interface Page {
  rows: Array<{ id: string; fields: Array<{ id: string; value: unknown }> }>;
  total: number;
}

const PAGE_SIZE = 1000;

/** NaN for an empty value, which Number() would read as 0 and so hide. */
function asPosition(value: unknown): number {
  return value === null || value === undefined || value === '' ? NaN : Number(value);
}

/**
 * Every live row, read through the list endpoint as any client would, page by page in id order
 * (nothing writes while this runs, so the pages neither overlap nor skip).
 */
export async function readAllRows(api: Api, sheet: CrashSheet): Promise<StoredRows> {
  const { field } = sheet;
  const rows: StoredRow[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const page = await api.call<Page>('POST', `/v3/app/worksheets/${sheet.id}/rows/list`, {
      pageSize: PAGE_SIZE,
      pageIndex,
      sorts: [{ field: 'id', isAsc: true }],
      fields: [field.batch, field.n, field.marker],
    });
    for (const row of page.rows) {
      const value = new Map(row.fields.map((f) => [f.id, f.value]));
      rows.push({ id: row.id, batch: String(value.get(field.batch) ?? ''), n: asPosition(value.get(field.n)), marker: String(value.get(field.marker) ?? '') });
    }
    // The last page's total: nothing writes meanwhile, so every page reports the same one.
    if (page.rows.length < PAGE_SIZE) return { rows, total: page.total };
  }
}
