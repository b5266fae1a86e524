import type { FieldMeta } from '../../fields/field-type.js';

/**
 * `responseFormat: "md"` on the record list: one text table, compact for language-model clients.
 * Cells are separated by the full-width bar `｜` as in the worksheet renderings; the first line
 * names the columns (`id`, then the field names, then the system fields when asked for).
 *
 * @example
 * id｜Title｜Amount｜Status
 * 0193…｜ACME｜129.50｜Open
 */

const SYSTEM_COLUMNS = ['_createdBy', '_owner', '_updatedBy', '_createdAt', '_updatedAt'] as const;

/** Object keys that carry the readable text of a value: option text, member, region (its path, else its code), department, place. */
const TEXT_KEYS = ['value', 'fullname', 'path', 'name', 'address', 'title', 'code'];

/** One cell: a bar or line break inside a value cannot end the cell or the row. */
function escapeCell(text: string): string {
  return text.replace(/｜/g, '|').replace(/\r\n|\r|\n/g, '<br>');
}

/**
 * The readable text of a read value, by its shape: options by text, members and departments by
 * name, regions by path, related records by title, lists joined with `, `.
 * @example cellText([{ key: 'k1', value: 'Open' }]) // "Open"
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of TEXT_KEYS) if (typeof record[key] === 'string' && record[key] !== '') return record[key];
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * The table of a page of records, from flat rows keyed by field id (`rowPresenter` with
 * `keyByFieldId`); `systemFields` adds the five system columns.
 */
export function recordsMarkdown(fields: FieldMeta[], rows: Array<Record<string, unknown>>, systemFields: boolean): string {
  const system = systemFields ? SYSTEM_COLUMNS : [];
  const header = ['id', ...fields.map((f) => f.name), ...system].map(escapeCell).join('｜');
  const lines = rows.map((row) =>
    [String(row.id), ...fields.map((f) => cellText(row[f.id])), ...system.map((key) => cellText(row[key]))].map(escapeCell).join('｜'),
  );
  return [header, ...lines].join('\n');
}
