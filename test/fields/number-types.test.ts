import { describe, expect, it } from 'vitest';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { roundTo } from '../../src/fields/kinds/number-kind.js';
import { caught, expectBadValue, fieldOf, readerOf, writerOf } from './field-fixture.js';

describe('roundTo', () => {
  it('rounds half away from zero without binary surprises', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(1.255, 2)).toBe(1.26);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(123.456, 1)).toBe(123.5);
  });

  it('handles numbers whose text uses an exponent', () => {
    expect(roundTo(1e-7, 2)).toBe(0);
    expect(roundTo(1.5e-7, 7)).toBe(2e-7);
    expect(roundTo(1e21, 2)).toBe(1e21);
    expect(roundTo(-3e22, 0)).toBe(-3e22);
  });
});

describe.each(['6', '8', '25'])('number type %s', (code) => {
  const write = writerOf(code);
  const read = readerOf(code);
  const twoPlaces = fieldOf(code, { precision: 2 });

  it('accepts numbers and numeric strings', () => {
    expect(write(12.5)).toBe(12.5);
    expect(write('12.5')).toBe(12.5);
    expect(write(' -3 ')).toBe(-3);
    expect(write('.5')).toBe(0.5);
    expect(write('1e3')).toBe(1000);
    expect(write(0)).toBe(0);
    expect(write('0')).toBe(0);
  });

  it('rounds to the precision on write: 1.005 with precision 2 is 1.01', () => {
    expect(write(1.005, twoPlaces)).toBe(1.01);
    expect(write('1.005', twoPlaces)).toBe(1.01);
    expect(write(2.344, twoPlaces)).toBe(2.34);
    expect(write(0.0000001, twoPlaces)).toBe(0);
    expect(write(7.5, fieldOf(code, { precision: 0 }))).toBe(8);
  });

  it('reads as a decimal string with the precision', () => {
    expect(read(1.01, twoPlaces)).toBe('1.01');
    expect(read(12.5, twoPlaces)).toBe('12.50');
    expect(read(3, twoPlaces)).toBe('3.00');
    expect(read(7, fieldOf(code, { precision: 0 }))).toBe('7');
    expect(read(12.5)).toBe('12.5');
    expect(read(null, twoPlaces)).toBeNull();
  });

  it('rounds a value stored before the precision was set the same way as a write', () => {
    expect(read(1.005, twoPlaces)).toBe('1.01');
    expect(read(-2.675, twoPlaces)).toBe('-2.68');
    expect(read(12.5, fieldOf(code, { precision: 0 }))).toBe('13');
  });

  it('round-trips the written value through write and read', () => {
    expect(read(write('1.005', twoPlaces), twoPlaces)).toBe('1.01');
    expect(read(write(-0.125, twoPlaces), twoPlaces)).toBe('-0.13');
  });

  it('refuses what is not a finite number with 10002 naming the field', () => {
    for (const bad of ['abc', '12abc', '1,5', '--1', true, [1], { n: 1 }, Number.NaN, Number.POSITIVE_INFINITY, '1e400', '-1e400']) {
      expect(expectBadValue(() => write(bad)).message).toContain('expected a number');
    }
  });

  it('checks the precision at definition: a whole number from 0 to 14', () => {
    const type = fieldTypeOf(code);
    expect(type.prepare!({ name: 'Amount', options: [], config: { precision: '3' } }, null).config).toEqual({ precision: 3 });
    expect(type.prepare!({ name: 'Amount', options: [], config: { precision: null } }, null).config).toEqual({});
    for (const bad of [-1, 15, 1.5, 'two']) {
      const error = caught(() => type.prepare!({ name: 'Amount', options: [], config: { precision: bad } }, null));
      expect(error.code).toBe(10002);
      expect(error.message).toContain('"Amount"');
    }
  });
});
