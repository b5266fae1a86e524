import type { FieldMeta } from '../../../fields/field-type.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { encodeValues, type FieldValueInput, type ReferenceSet } from '../value-codec.js';

/**
 * What a draft keeps: the value of each field as the requests sent it (and the item's `type`, the
 * write mode of relations and attachments), by field id. Inputs rather than stored values, so that a
 * submit encodes them against the schema, options and records of its own time.
 * @example { "6650…a1": { "value": "Invoice 7" }, "6650…b2": { "value": ["0193…"], "type": 1 } }
 */
export type DraftInputs = Record<string, { value: unknown; type?: number }>;

/**
 * Checks written field values as a create does (unknown fields, types, formats: 10002 naming the
 * field), except that required fields may stay empty; returns them as a draft keeps them. Values of
 * fields the system fills (auto numbers, computed) are left out, as a create ignores them.
 */
export function checkDraftInputs(schema: WorksheetSchema, fields: FieldValueInput[], timeZone: string, references: ReferenceSet): DraftInputs {
  const encoded = encodeValues(schema, fields, '', timeZone, 'draft', references);
  const inputs: DraftInputs = {};
  for (const item of fields) {
    const field = schema.byKey.get(item.id!)!;
    if (!encoded.has(field.id)) continue;
    inputs[field.id] = item.type === undefined ? { value: item.value ?? null } : { value: item.value ?? null, type: item.type };
  }
  return inputs;
}

/** A draft's inputs as written field items, for its fields that still exist (a removed field's value is dropped). */
export function draftFieldItems(schema: WorksheetSchema, inputs: DraftInputs): FieldValueInput[] {
  return Object.entries(inputs)
    .filter(([fieldId]) => schema.byKey.has(fieldId))
    .map(([id, input]) => ({ id, value: input.value, ...(input.type === undefined ? {} : { type: input.type }) }));
}

export function parseInputs(json: string): DraftInputs {
  return JSON.parse(json) as DraftInputs;
}

/**
 * Whether a field's written value is an edit the record writer resolves at insert time against
 * what is stored elsewhere (attached files, sub-table rows): a draft shows it as it was sent.
 */
export function shownAsSent(field: FieldMeta): boolean {
  return field.fieldType.edits === 'files' || field.fieldType.owns === true;
}
