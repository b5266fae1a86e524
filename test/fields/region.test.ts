import { describe, expect, it } from 'vitest';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { expectBadValue, fieldOf, noRefs, readerOf, writerOf } from './field-fixture.js';

const refs = { ...noRefs, regions: new Map([['440305', { name: '南山区', path: '广东省/深圳市/南山区' }]]) };

describe.each([
  ['19', 1],
  ['23', 2],
  ['24', 3],
] as const)('region type %s', (code, deepestLevel) => {
  const write = writerOf(code);
  const read = readerOf(code);
  const type = fieldTypeOf(code);

  it('stores a region code as text, from text or a whole number', () => {
    expect(write('310100')).toBe('310100');
    expect(write(110000)).toBe('110000');
    expect(write('910000')).toBe('910000');
  });

  it('reads as {code, name, path}, with the names resolved for the page (null when empty)', () => {
    expect(read('440305', fieldOf(code), refs)).toEqual({ code: '440305', name: '南山区', path: '广东省/深圳市/南山区' });
    expect(read('990000')).toEqual({ code: '990000', name: '', path: '' });
    expect(read(null)).toBeNull();
  });

  it(`refers to the region, to be checked no deeper than level ${deepestLevel}`, () => {
    expect(type.referenceKind).toBe('region');
    expect(type.references!('440305', fieldOf(code))).toEqual({ kind: 'region', ids: ['440305'], deepestLevel });
    expect(type.references!(null, fieldOf(code))).toBeNull();
  });

  it('refuses what is not a region code with 10002', () => {
    for (const bad of ['Shanghai', '3', '31 01 00', '1234567890123', 3101.5, true, ['310100'], { id: '310100' }]) {
      expect(expectBadValue(() => write(bad)).message).toContain('region code');
    }
  });
});
