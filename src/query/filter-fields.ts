import type { WorksheetSchema } from '../modules/worksheets/worksheet-schema.js';
import { systemColumn } from './query-fields.js';

/**
 * Every `field` of a stored filter tree through `map`; conditions whose field it maps to null are
 * dropped (a group left without conditions then holds for every row, as an empty group does).
 * @example mapFilterFields(filter, (field) => schema.byKey.get(field)?.id ?? field)
 */
export function mapFilterFields(node: unknown, map: (field: string) => string | null): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const object = node as Record<string, unknown>;
  if (Array.isArray(object.children)) {
    const children = object.children.map((child) => mapFilterFields(child, map)).filter((child) => child !== null);
    return { ...object, children };
  }
  if (typeof object.field !== 'string') return object;
  const field = map(object.field);
  return field === null ? null : { ...object, field };
}

/** Whether a stored reference names a field the worksheet has now (or a system field). */
export function fieldExists(schema: WorksheetSchema, id: string | null): id is string {
  return id !== null && (schema.byKey.has(id) || systemColumn(id) !== undefined);
}

/**
 * A stored filter (a view's) as the worksheet is now: conditions on fields removed since are
 * forgotten, as Airtable and NocoDB forget a deleted field in their views.
 */
export function filterOfFieldsNow(filter: unknown, schema: WorksheetSchema): unknown {
  return mapFilterFields(filter, (field) => (fieldExists(schema, field) ? field : null));
}
