import { describe, expect, it } from 'vitest';
import type { FieldOption } from '../../src/fields/field-type.js';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { expectBadValue, fieldOf, readerOf, writerOf } from './field-fixture.js';

const OPTIONS: FieldOption[] = [
  { key: 'k-red', value: 'Red', index: 1 },
  { key: 'k-green', value: 'Green', index: 2 },
  { key: 'k-blue', value: 'Blue', index: 3 },
  { key: 'k-gone', value: 'Mauve', index: 4, isDeleted: true },
];

describe.each(['9', '11'])('single choice type %s', (code) => {
  const field = fieldOf(code, {}, OPTIONS);
  const write = writerOf(code);
  const read = readerOf(code);

  it('stores one key, given as a key, a one-key array, or the exact option text', () => {
    expect(write('k-green', field)).toBe('k-green');
    expect(write(['k-green'], field)).toBe('k-green');
    expect(write('Green', field)).toBe('k-green');
    expect(write(['Blue'], field)).toBe('k-blue');
    expect(write(['k-red', 'Red'], field)).toBe('k-red');
    expect(write([], field)).toBeNull();
  });

  it('reads as [{key, value}]', () => {
    expect(read('k-blue', field)).toEqual([{ key: 'k-blue', value: 'Blue' }]);
    expect(read(null, field)).toEqual([]);
  });

  it('reads a deleted option as its text', () => {
    expect(read('k-gone', field)).toEqual([{ key: 'k-gone', value: 'Mauve' }]);
  });

  it('refuses more than one option with 10002', () => {
    expect(expectBadValue(() => write(['k-red', 'k-blue'], field)).message).toContain('takes one option, got 2');
  });

  it('refuses unknown, deleted, case-changed or non-text options with 10002', () => {
    for (const bad of ['k-purple', 'green', 'k-gone', 'Mauve']) expect(expectBadValue(() => write(bad, field)).message).toContain('unknown option');
    for (const bad of [1, true, { key: 'k-red' }, [null]]) expectBadValue(() => write(bad, field));
  });
});

describe('10 MultipleSelect', () => {
  const field = fieldOf('10', {}, OPTIONS);
  const write = writerOf('10');
  const read = readerOf('10');

  it('stores the keys in the written order, once each', () => {
    expect(write(['k-blue', 'Red'], field)).toEqual(['k-blue', 'k-red']);
    expect(write(['k-red', 'Red', 'k-red'], field)).toEqual(['k-red']);
    expect(write('Green', field)).toEqual(['k-green']);
    expect(write([], field)).toBeNull();
  });

  it('reads as [{key, value}] in stored order', () => {
    expect(read(['k-blue', 'k-red'], field)).toEqual([
      { key: 'k-blue', value: 'Blue' },
      { key: 'k-red', value: 'Red' },
    ]);
    expect(read(null, field)).toEqual([]);
  });

  it('refuses an unknown option anywhere in the list', () => {
    expect(expectBadValue(() => write(['k-red', 'Purple'], field)).message).toContain('"Purple"');
  });

  it('counts an empty list as empty', () => {
    const type = fieldTypeOf('10');
    expect(type.isEmpty!([])).toBe(true);
    expect(type.isEmpty!(['k-red'])).toBe(false);
  });
});

describe('choice definition config', () => {
  it('reads isColorOptions leniently', () => {
    const type = fieldTypeOf('9');
    const prepared = type.prepare!({ name: 'Colour', options: [{ value: 'Red' }], config: { isColorOptions: 'true' } }, null);
    expect(prepared.config).toEqual({ isColorOptions: true });
    expect(prepared.options).toEqual([{ key: expect.any(String), value: 'Red', index: 1 }]);
  });
});
