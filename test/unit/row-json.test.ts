import { describe, expect, it } from 'vitest';
import fastJsonStringify from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';
import { FlatRecordOut, RecordOut } from '../../src/modules/records/schemas.js';
import { presentRecord, type StoredRow } from '../../src/modules/records/presenter.js';
import { presentProcessFields } from '../../src/modules/records/process-presenter.js';
import { rowTextWriter, specRowWriter } from '../../src/modules/records/row-json.js';
import { rowPresenter, type RowShape } from '../../src/modules/records/row-shape.js';
import type { FieldMeta, FieldType, ResolvedReferences } from '../../src/fields/field-type.js';

/**
 * The list route sends spec-shape rows as the text `specRowWriter` makes; every other read sends
 * `presentRecord`'s objects through the row schema's serializer. The two must give the same bytes
 * for any value a type's `read` may return.
 */
const VALUES: unknown[] = [
  'plain',
  'quote " backslash \\ newline \n tab \t control \u0001 en dash \u2013 emoji \u{1F600} lone \ud800 CJK 上海',
  '',
  0,
  -0,
  12.5,
  1e21,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  [],
  [{ key: 'k1', value: 'Red' }, { key: 'k"2', value: 'Gr\u00fcn' }],
  { code: '310000', name: '上海市', path: '上海市', missing: undefined },
  [undefined, null, 1],
  new Date(Date.UTC(2026, 10, 26, 7, 30)),
];

function fieldReading(index: number, value: unknown): FieldMeta {
  const fieldType = { read: () => value } as unknown as FieldType;
  return {
    id: `f${String(index).padStart(23, '0')}`,
    worksheetId: 'w0000000000000000000000a',
    name: index === 1 ? 'He said "hi" \u2013 \\ ok' : `Field ${index}`,
    alias: `a${index}`,
    type: index % 2 === 0 ? 'Text' : 'Number',
    required: false,
    isTitle: false,
    isUnique: false,
    position: index,
    options: [],
    config: {},
    description: '',
    fieldType,
  };
}

const NOW = Date.UTC(2026, 10, 26, 8, 0);

const row: StoredRow = {
  id: '019abc00-0000-7000-8000-000000000001',
  _created_by: 'acc-1',
  _owner: 'acc-2',
  _updated_by: 'acc-unknown',
  _created_at: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
  _updated_at: Date.UTC(2026, 10, 26, 7, 0, 0, 999),
  _autoid: 7,
  // The process fields a flat row with system fields shows (`process-presenter.ts`).
  _process_name: 'Expense "claim"',
  _node_assignees: ['acc-1', 'acc-2'],
  _initiated_by: 'acc-1',
  _initiated_at: Date.UTC(2026, 10, 20),
  _node_started_at: null,
  _approval_completed_at: null,
  _due_at: Date.UTC(2026, 10, 27),
  _process_status: 'running',
};
const refs: ResolvedReferences = {
  accounts: new Map([
    ['acc-1', { fullname: 'Ada "the first" Lovelace', avatar: '', status: 1 }],
    ['acc-2', { fullname: 'Zoë', avatar: '', status: 1 }],
  ]),
  departments: new Map(),
  regions: new Map(),
  records: new Map(),
};

describe('spec-shape rows written as text', () => {
  const serializeRow = fastJsonStringify(RecordOut as TSchema);

  it('are the bytes the row schema makes of the record object, for every kind of value', () => {
    const fields = VALUES.map((value, i) => fieldReading(i, value));
    const expected = serializeRow(presentRecord(fields, row, refs));
    expect(specRowWriter(fields)(row, refs, NOW).json).toBe(expected);
  });

  it('are the same for each value alone; a read that gave undefined is written as null', () => {
    for (const [i, value] of VALUES.entries()) {
      const fields = [fieldReading(i, value)];
      expect(specRowWriter(fields)(row, refs, NOW).json, `value #${i}`).toBe(serializeRow(presentRecord(fields, row, refs)));
    }
    // The schema's serializer refuses it (value is required): no type reads undefined.
    expect(() => serializeRow(presentRecord([fieldReading(0, undefined)], row, refs))).toThrow(/"value" is required/);
    expect(specRowWriter([fieldReading(0, undefined)])(row, refs, NOW).json).toContain('"fields":[{"id":"f00000000000000000000000","value":null,"type":"Text","controlName":"Field 0"}]');
  });

  it('write a record without fields, and users without a resolved name with an empty one', () => {
    const json = specRowWriter([])(row, refs, NOW).json;
    expect(json).toBe(serializeRow(presentRecord([], row, refs)));
    expect(JSON.parse(json)._updatedBy).toEqual({ accountId: 'acc-unknown', fullname: '' });
  });
});

describe('flat rows written as text', () => {
  const serializeRow = fastJsonStringify(FlatRecordOut as TSchema);
  const fields = VALUES.map((value, i) => fieldReading(i, value));
  const shapes: Array<Extract<RowShape, { kind: 'flat' }>> = [
    { kind: 'flat', keyByFieldId: false, systemFields: false },
    { kind: 'flat', keyByFieldId: true, systemFields: false },
    { kind: 'flat', keyByFieldId: false, systemFields: true },
  ];

  it.each(shapes)('are the bytes the flat schema makes of the object (by field id: $keyByFieldId, system fields: $systemFields)', (shape) => {
    const expected = serializeRow(rowPresenter(shape, fields, NOW)(row, refs));
    expect(rowTextWriter(shape, fields)!(row, refs, NOW).json).toBe(expected);
  });

  it('leave out a key whose value reads undefined, as the schema serializer does', () => {
    const shape = shapes[0];
    const withUndefined = [fieldReading(0, 'kept'), fieldReading(1, undefined)];
    const json = rowTextWriter(shape, withUndefined)!(row, refs, NOW).json;
    expect(json).toBe(serializeRow(rowPresenter(shape, withUndefined, NOW)(row, refs)));
    expect(JSON.parse(json)).toEqual({ id: row.id, rowId: row.id, a0: 'kept' });
  });

  it('are not written as text when a field is keyed like a key of the row itself or a process field', () => {
    const aliased = (alias: string) => ({ ...fieldReading(0, 'x'), alias });
    expect(rowTextWriter(shapes[0], [aliased('autoid')])).toBeNull();
    expect(rowTextWriter(shapes[0], [aliased('isDraft')])).toBeNull();
    expect(rowTextWriter(shapes[2], [aliased('_processName')])).toBeNull();
    expect(rowTextWriter(shapes[0], [aliased('_processName')])).not.toBeNull();
    // Every key the flat schema names (`id` and `rowId` aside: a field aliased so is keyed by its
    // id) and every process key the presenter writes, so that neither list can drift from the writer's.
    for (const key of Object.keys(FlatRecordOut.properties).filter((k) => k !== 'id' && k !== 'rowId')) expect(rowTextWriter(shapes[0], [aliased(key)]), key).toBeNull();
    for (const key of Object.keys(presentProcessFields(row, refs, NOW))) expect(rowTextWriter(shapes[2], [aliased(key)]), key).toBeNull();
  });
});
