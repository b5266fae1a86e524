import { describe, expect, it } from 'vitest';
import { allFieldTypes, fieldTypeOf, resolveFieldType } from '../../src/fields/registry.js';
import type { FieldType } from '../../src/fields/field-type.js';
import { defineField } from '../../src/modules/worksheets/field-definitions.js';
import { caught, ctx, expectBadValue, fieldOf } from './field-fixture.js';

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
const valueHolding = ready.filter((t) => t.column !== null);

function isEmpty(type: FieldType, stored: unknown): boolean {
  return type.isEmpty ? type.isEmpty(stored) : stored === null;
}

describe('the field-type registry', () => {
  it('registers exactly the public codes, each once', () => {
    const codes = types.map((t) => t.code);
    expect([...codes].sort((a, b) => Number(a) - Number(b))).toEqual(PUBLIC_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('holds both ready and planned types', () => {
    expect(ready.length).toBeGreaterThan(20);
    expect(planned.map((t) => t.code).sort()).toEqual(expect.arrayContaining(['14', '29', '30', '31', '34']));
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

  it('registers the layout types without a storage column', () => {
    expect(ready.filter((t) => t.column === null).map((t) => t.code).sort()).toEqual([...LAYOUT_CODES].sort());
  });
});

describe.each(types.map((t) => [`${t.code} ${t.name}`, t] as const))('field type %s', (_title, type) => {
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

  it('cannot be required when it is read-only or holds no value', () => {
    if (type.readOnly || type.column === null) expect(type.canBeRequired).toBe(false);
  });

  if (type.availability === 'planned') {
    it('is refused at definition with 10002 saying when it arrives', () => {
      expect(type.plannedFor).toBeTruthy();
      const error = caught(() => defineField({ name: 'Later', type: type.code }, 'fields[4]', 'w1', 1));
      expect(error.code).toBe(10002);
      expect(error.message).toContain('fields[4].type');
      expect(error.message).toContain(`${type.name} (${type.code})`);
      expect(error.message).toContain(type.plannedFor!);
    });
    return;
  }

  it('is accepted at definition, stored under its code', () => {
    const field = defineField({ name: 'Now', type: type.name }, 'fields[0]', 'w1', 1);
    const expected = types.find((t) => t.name === type.name)!;
    expect(field.type).toBe(expected.code);
    expect(defineField({ name: 'Now', type: type.code }, 'fields[0]', 'w1', 1).type).toBe(type.code);
  });

  if (type.column === null) {
    it('holds no value: refuses a non-empty one with 10002 naming the field', () => {
      expect(type.write).toBeDefined();
      for (const value of ['x', 1, true, ['a'], { a: 1 }]) expectBadValue(() => type.write!(value, fieldOf(type.code), ctx));
      for (const value of [null, undefined, '']) expect(type.write!(value, fieldOf(type.code), ctx)).toBeNull();
    });
    return;
  }

  it('has write and read', () => {
    expect(typeof type.write).toBe('function');
    expect(typeof type.read).toBe('function');
  });

  it('stores null, undefined and "" as an empty value', () => {
    const expected = type.column === 'boolean' ? false : null;
    for (const value of [null, undefined, '']) {
      const stored = type.write!(value, fieldOf(type.code), ctx);
      expect(stored).toBe(expected);
      expect(isEmpty(type, stored)).toBe(true);
    }
  });

  if (type.readOnly) {
    it('is read-only: refuses a written value with 10002', () => {
      for (const value of [1, '7', 'x']) expectBadValue(() => type.write!(value, fieldOf(type.code), ctx));
    });
  }
});

describe('value-holding ready types', () => {
  it('cover the value kinds of the first issue', () => {
    expect(valueHolding.map((t) => t.code).sort((a, b) => Number(a) - Number(b))).toEqual([
      '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '15', '16', '19', '21', '23', '24', '25', '26', '27', '28', '33', '36',
      '39', '40', '41', '42', '43', '46', '47',
    ]);
  });
});
