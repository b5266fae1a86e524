import { describe, expect, it } from 'vitest';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { caught, expectBadValue, fieldOf, readerOf, writerOf } from './field-fixture.js';

describe('28 Rating', () => {
  const write = writerOf('28');
  const read = readerOf('28');
  const outOfTen = fieldOf('28', { max: 10 });

  it('accepts whole numbers from 0 to max (default 5), numeric strings too', () => {
    expect(write(0)).toBe(0);
    expect(write(5)).toBe(5);
    expect(write('3')).toBe(3);
    expect(write('3.0')).toBe(3);
    expect(write(10, outOfTen)).toBe(10);
  });

  it('refuses values outside 0..max and fractions', () => {
    expect(expectBadValue(() => write(6)).message).toContain('from 0 to 5');
    expect(expectBadValue(() => write(11, outOfTen)).message).toContain('from 0 to 10');
    for (const bad of [-1, 2.5, 'three', true]) expectBadValue(() => write(bad));
  });

  it('reads as a numeric string', () => {
    expect(read(4)).toBe('4');
    expect(read(0)).toBe('0');
    expect(read(null)).toBeNull();
  });

  it('checks max at definition: 1 to 10', () => {
    const type = fieldTypeOf('28');
    expect(type.prepare!({ name: 'Stars', options: [], config: { max: '7' } }, null).config).toEqual({ max: 7 });
    for (const bad of [0, 11, 2.5, 'many']) {
      expect(caught(() => type.prepare!({ name: 'Stars', options: [], config: { max: bad } }, null)).code).toBe(10002);
    }
  });
});
