import { describe, expect, it } from 'vitest';
import { expectBadValue, readerOf, writerOf } from './field-fixture.js';

describe('40 Location', () => {
  const write = writerOf('40');
  const read = readerOf('40');

  it('stores {x, y, address, title}, from x/y or longitude/latitude, numbers or numeric text', () => {
    expect(write({ x: 121.47, y: 31.23, address: 'Bund 1', title: 'Office' })).toEqual({ x: 121.47, y: 31.23, address: 'Bund 1', title: 'Office' });
    expect(write({ longitude: '-74.0060', latitude: '40.7128' })).toEqual({ x: -74.006, y: 40.7128, address: '', title: '' });
    expect(write({ x: 0, y: 0, address: null })).toEqual({ x: 0, y: 0, address: '', title: '' });
    expect(write({ x: 180, y: -90 })).toEqual({ x: 180, y: -90, address: '', title: '' });
  });

  it('refuses coordinates out of range or missing with 10002', () => {
    expect(expectBadValue(() => write({ x: 180.1, y: 0 })).message).toContain('x (longitude)');
    expect(expectBadValue(() => write({ x: -181, y: 0 })).message).toContain('x (longitude)');
    expect(expectBadValue(() => write({ x: 10, y: 90.5 })).message).toContain('y (latitude)');
    expect(expectBadValue(() => write({ x: 10 })).message).toContain('y (latitude)');
    expect(expectBadValue(() => write({ x: 'east', y: 1 })).message).toContain('x (longitude)');
    expect(expectBadValue(() => write({ x: 1, y: 1, address: 5 })).message).toContain('address must be text');
    for (const bad of ['121.47,31.23', [121.47, 31.23], 5, true]) expectBadValue(() => write(bad));
  });

  it('reads the stored object', () => {
    const stored = { x: 1, y: 2, address: 'A', title: 'T' };
    expect(read(stored)).toEqual(stored);
    expect(read(null)).toBeNull();
  });
});
