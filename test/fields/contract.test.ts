import { describe, expect, it } from 'vitest';
import { allFieldTypes, fieldTypeOf, resolveFieldType } from '../../src/fields/registry.js';
import type { FieldMeta, FieldType } from '../../src/fields/field-type.js';
import { defineField } from '../../src/modules/worksheets/field-definitions.js';
import { caught, ctx, expectBadValue, fieldOf } from './field-fixture.js';
import { FIELD_SAMPLES, inWorld, referencesOf, sampleOf, type SampleWorld } from './field-samples.js';
/** Every code of the public type table (public-v3-facts.md §2.1). */
const PUBLIC_CODES = [
  '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '14', '15', '16', '19', '21', '22', '23', '24', '25', '26', '27',
  '28', '29', '30', '31', '32', '33', '34', '35', '36', '37', '38', '39', '40', '41', '42', '43', '44', '45', '46', '47',
  '48', '49', '50', '51', '52', '53', '54',
];

/** Layout types: part of the form, holding no value. */
const LAYOUT_CODES = ['22', '45', '49', '52'];

const types = allFieldTypes();
const ready = types.filter((t) => t.availability === 'ready');
const planned = types.filter((t) => t.availability === 'planned');
const valueHolding = ready.filter((t) => t.column !== null && !t.computed && !t.edits && !t.pointsAt);

/**
 * What the contract expects of a type follows from what it declares: planned (refused at
 * definition), layout (ready, stored nowhere: holds nothing), links (ready, values in a link table:
 * written as edits, read from the related ids a page finds), system (ready, read-only: the system
 * produces the value) or value (ready, written by clients). Every test asserts in every branch.
 */
type Category = 'planned' | 'layout' | 'links' | 'owned' | 'files' | 'points' | 'computed' | 'system' | 'value';
function categoryOf(type: FieldType): Category {
  if (type.availability === 'planned') return 'planned';
  if (type.storage === 'none') return 'layout';
  if (type.storage === 'links') return type.owns ? 'owned' : 'links';
  if (type.edits === 'files') return 'files';
  if (type.pointsAt === 'record') return 'points';
  if (type.computed) return 'computed';
  return type.readOnly ? 'system' : 'value';
}

/**
 * What a definition of a type needs beyond its name and type: a relation the worksheet it relates
 * to; a computed field what it computes from (checked against the worksheet when it is stored).
 */
function definitionBasics(type: FieldType): Record<string, unknown> {
  if (type.storage === 'links' || type.pointsAt) return type.owns ? { config: { fields: [] } } : { dataSource: 'w2' };
  if (type.computed?.kind === 'row') return { config: { expression: '$a$', start: '$a$', end: '$b$' } };
  if (type.computed?.kind === 'related') return { config: { relationField: 'r', sourceField: 's', aggregation: 'COUNT' } };
  return {};
}

/** A field of a ready type defined as its sample says, and a made-up world around it. */
function sampleField(type: FieldType): { field: FieldMeta; world: SampleWorld } {
  const field = defineField({ name: 'Probe', type: type.code, ...sampleOf(type.code).definition }, 'fields[0]', 'w1', 1);
  const world: SampleWorld = {
    account: { accountId: 'acc-1', fullname: 'Ada', avatar: '', status: 1 },
    department: { id: 'dep-1', name: 'Sales' },
    optionKey: (text) => field.options.find((o) => o.value === text)!.key,
  };
  return { field, world };
}

describe('the field-type registry', () => {
  it('registers exactly the public codes, each once', () => {
    const codes = types.map((t) => t.code);
    expect([...codes].sort((a, b) => Number(a) - Number(b))).toEqual(PUBLIC_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('holds both ready and planned types', () => {
    expect(ready.length).toBeGreaterThan(20);
    expect(planned.map((t) => t.code).sort()).toEqual(expect.arrayContaining(['44', '50']));
  });

  it('resolves "Region" to the first registered region type', () => {
    const regions = types.filter((t) => t.name === 'Region').map((t) => t.code);
    expect([...regions].sort()).toEqual(['19', '23', '24']);
    expect(resolveFieldType('Region', 'type').code).toBe(regions[0]);
    expect(resolveFieldType('region', 'type').code).toBe(regions[0]);
  });

  it('refuses an unknown type with 10002 naming where it was given', () => {
    for (const input of ['12', 'Spreadsheet', '', 99, null, true]) {
      const error = caught(() => resolveFieldType(input, 'fields[3].type'));
      expect(error.code).toBe(10002);
      expect(error.message).toContain('fields[3].type');
    }
  });

  it('lets only Text and AutoNumber be the title', () => {
    expect(types.filter((t) => t.canBeTitle).map((t) => t.code).sort()).toEqual(['2', '33']);
  });

  it('registers the layout types as storing nothing, and relations in link tables', () => {
    expect(ready.filter((t) => t.storage === 'none').map((t) => t.code).sort()).toEqual([...LAYOUT_CODES].sort());
    expect(ready.filter((t) => t.storage === 'links').map((t) => t.code).sort()).toEqual(['29', '34']);
    for (const type of ready) expect(type.storage === 'column').toBe(type.column !== null);
  });
});

describe.each(types.map((t) => [`${t.code} ${t.name}`, t] as const))('field type %s', (_title, type) => {
  const category = categoryOf(type);

  it('has a digit code, a name, and is found by code and by name', () => {
    expect(type.code).toMatch(/^\d+$/);
    expect(type.name.trim()).not.toBe('');
    expect(fieldTypeOf(type.code)).toBe(type);
    expect(resolveFieldType(type.code, 'type')).toBe(type);
    expect(resolveFieldType(Number(type.code), 'type')).toBe(type);
    const byName = resolveFieldType(type.name, 'type');
    expect(byName).toBe(types.find((t) => t.name === type.name));
    expect(resolveFieldType(type.name.toUpperCase(), 'type')).toBe(byName);
  });

  it('is complete: flags decided, prepare, read and isEmpty present', () => {
    for (const flag of [type.readOnly, type.canBeTitle, type.canBeRequired, type.indexable]) expect(typeof flag).toBe('boolean');
    for (const hook of [type.prepare, type.read, type.isEmpty]) expect(typeof hook).toBe('function');
    expect(type.isEmpty(null)).toBe(true);
  });

  it('can be required exactly when clients write a value to it', () => {
    expect(type.canBeRequired).toBe(!type.readOnly && type.storage !== 'none');
  });

  it('sorts by option order only when it can be sorted by at all', () => {
    if (type.sortOrder) {
      expect(type.indexable).toBe(true);
      const options = [
        { key: 'k-late', value: 'Late', index: 2 },
        { key: 'k-early', value: 'Early', index: 1 },
      ];
      expect(type.sortOrder(fieldOf(type.code, {}, options))).toEqual({ optionOrder: ['k-early', 'k-late'] });
    } else {
      expect(type.sortOrder).toBeUndefined();
    }
  });

  it('assigns values on insert only when clients cannot write them', async () => {
    if (type.assignOnInsert) {
      expect(type.readOnly).toBe(true);
      const field = fieldOf(type.code);
      const values = await type.assignOnInsert(field, 2, { now: 0, timeZone: 'UTC', reserveSequence: async () => 1 });
      expect(values).toHaveLength(2);
    } else {
      expect(type.assignOnInsert).toBeUndefined();
    }
  });

  it('is accepted or refused at definition as its availability says', () => {
    if (category === 'planned') {
      expect(type.plannedFor).toBeTruthy();
      const error = caught(() => defineField({ name: 'Later', type: type.code }, 'fields[4]', 'w1', 1));
      expect(error.code).toBe(10002);
      expect(error.message).toContain('fields[4].type');
      expect(error.message).toContain(`${type.name} (${type.code})`);
      expect(error.message).toContain(type.plannedFor!);
    } else {
      expect(type.plannedFor).toBeUndefined();
      const field = defineField({ name: 'Now', type: type.name, ...definitionBasics(type) }, 'fields[0]', 'w1', 1);
      expect(field.type).toBe(types.find((t) => t.name === type.name)!.code);
      expect(field.fieldType).toBe(fieldTypeOf(field.type));
      expect(defineField({ name: 'Now', type: type.code, ...definitionBasics(type) }, 'fields[0]', 'w1', 1).fieldType).toBe(type);
    }
  });

  it('takes written values as its category says', () => {
    const field = fieldOf(type.code);
    switch (category) {
      case 'planned':
        // Nothing can be written to a field that cannot be defined.
        expect(type.write).toBeUndefined();
        break;
      case 'layout':
      case 'computed':
      case 'system':
        // Holds nothing, or only what the system puts there: empty values pass as no change.
        expect(typeof type.write).toBe('function');
        for (const value of ['x', 1, '7', true, ['a'], { a: 1 }]) expectBadValue(() => type.write!(value, field, ctx));
        for (const value of [null, undefined, '']) expect(type.write!(value, field, ctx)).toBeNull();
        break;
      case 'links':
        // An edit of the links: empty replaces them with none; ids are kept once each, in order.
        expect(typeof type.write).toBe('function');
        for (const value of [null, undefined, '']) {
          const stored = type.write!(value, field, ctx);
          expect(stored).toEqual({ mode: 'replace', ids: [] });
          expect(type.isEmpty(stored)).toBe(true);
        }
        expect(type.write!(['r2', { sid: 'r1' }, 'r2'], field, ctx)).toEqual({ mode: 'replace', ids: ['r2', 'r1'] });
        for (const value of [1, true, [{}], [''], { a: 1 }]) expectBadValue(() => type.write!(value, field, ctx));
        break;
      case 'files':
        // An edit the record writer resolves: empty replaces the files with none; uploads are decoded or kept as URLs.
        for (const value of [null, undefined, '']) {
          const stored = type.write!(value, field, ctx);
          expect(stored).toEqual({ mode: 'replace', keep: [], uploads: [] });
          expect(type.isEmpty(stored)).toBe(true);
        }
        expect(type.write!([{ name: 'a.txt', url: 'data:text/plain;base64,aGk=' }, { id: 'f1' }], field, { ...ctx, mode: 1 })).toEqual({
          mode: 'append',
          keep: ['f1'],
          uploads: [{ name: 'a.txt', source: { kind: 'data', bytes: Buffer.from('hi') } }],
        });
        for (const value of [1, 'x', [{ url: 'ftp://h/x' }], [{ name: 'n' }], [{ url: 'https://h/x', name: 7 }]]) expectBadValue(() => type.write!(value, field, ctx));
        break;
      case 'owned':
        // The child rows a record has after the write: empty means none; new rows as value lists, existing ones by sid.
        for (const value of [null, undefined, '']) {
          const stored = type.write!(value, field, ctx);
          expect(stored).toEqual({ rows: [] });
          expect(type.isEmpty(stored)).toBe(true);
        }
        expect(type.write!([[{ id: 'a', value: 1 }], { sid: 'r1', fields: [{ id: 'a', value: 2 }] }], field, ctx)).toEqual({ rows: [{ fields: [{ id: 'a', value: 1 }] }, { sid: 'r1', fields: [{ id: 'a', value: 2 }] }] });
        for (const value of [1, 'x', [1], [{ sid: '' }], [{ fields: 'x' }]]) expectBadValue(() => type.write!(value, field, ctx));
        break;
      case 'points':
        // One record id (checked against its worksheet by the writer).
        for (const value of [null, undefined, '', []]) expect(type.write!(value, field, ctx)).toBeNull();
        expect(type.write!(['r1'], field, ctx)).toBe('r1');
        expect(type.write!([{ sid: 'r1' }], field, ctx)).toBe('r1');
        for (const value of [1, ['a', 'b'], [{}], { x: 1 }]) expectBadValue(() => type.write!(value, field, ctx));
        break;
      case 'value': {
        expect(typeof type.write).toBe('function');
        const expected = type.column === 'boolean' ? false : null;
        for (const value of [null, undefined, '']) {
          const stored = type.write!(value, field, ctx);
          expect(stored).toBe(expected);
          expect(type.isEmpty(stored)).toBe(true);
        }
        break;
      }
    }
  });

  it('reads back its sample value in its wire shape', async () => {
    if (category === 'planned' || category === 'layout') {
      expect(FIELD_SAMPLES[type.code]).toBeUndefined();
      return;
    }
    if (category === 'computed') {
      // Computed from other fields (the API tests check the values): stored as its column says, read like its value kind.
      expect(FIELD_SAMPLES[type.code]).toBeUndefined();
      expect(type.readOnly).toBe(true);
      expect(type.storage).toBe('column');
      expect(type.read(null, fieldOf(type.code), { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map() })).toEqual(type.column === 'json' ? [] : null);
      return;
    }
    if (category === 'files') {
      // The stored file list reads with a download link for each file.
      const refs = { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map(), fileUrl: (id: string) => `https://h/files/${id}` };
      expect(type.read([{ id: 'f1', name: 'a.txt', size: 2, mimeType: 'text/plain' }], fieldOf(type.code), refs)).toEqual([
        { id: 'f1', name: 'a.txt', size: 2, mimeType: 'text/plain', downloadUrl: 'https://h/files/f1' },
      ]);
      expect(type.isEmpty([])).toBe(true);
      return;
    }
    if (category === 'points') {
      const refs = { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map([['r1', 'Leaf']]) };
      expect(type.read('r1', fieldOf(type.code, { dataSource: 'w2' }), refs)).toEqual([{ sid: 'r1', name: 'Leaf' }]);
      expect(type.read(null, fieldOf(type.code, { dataSource: 'w2' }), refs)).toEqual([]);
      return;
    }
    if (category === 'links' || category === 'owned') {
      // What the presenter puts in place of a stored value: the live related ids, with their titles resolved.
      const refs = { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map([['r1', 'First']]) };
      expect(type.read(['r1'], fieldOf(type.code, { dataSource: 'w2' }), refs)).toEqual([{ sid: 'r1', name: 'First' }]);
      expect(type.isEmpty([])).toBe(true);
      return;
    }
    const { field, world } = sampleField(type);
    const sample = sampleOf(type.code);
    const stored =
      sample.written === undefined
        ? (await type.assignOnInsert!(field, 1, { now: 0, timeZone: 'UTC', reserveSequence: async () => 1 }))[0]
        : type.write!(inWorld(sample.written, world), field, ctx);
    expect(type.isEmpty(stored)).toBe(false);
    expect(type.read(stored, field, referencesOf(world))).toEqual(inWorld(sample.wire, world));
  });
});

describe('value-holding ready types', () => {
  it('each have exactly one sample value', () => {
    expect(Object.keys(FIELD_SAMPLES).sort()).toEqual(valueHolding.map((t) => t.code).sort());
  });

  it('cover the value kinds of the first issue', () => {
    expect(valueHolding.map((t) => t.code).sort((a, b) => Number(a) - Number(b))).toEqual([
      '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '15', '16', '19', '21', '23', '24', '25', '26', '27', '28', '33', '36',
      '39', '40', '41', '42', '43', '46', '47',
    ]);
  });
});
