import { describe, expect, it } from 'vitest';
import { expectBadValue, readerOf, writerOf } from './field-fixture.js';

describe.each(['19', '23', '24'])('region type %s', (code) => {
  const write = writerOf(code);
  const read = readerOf(code);

  it('stores a region code as text, from text or a whole number', () => {
    expect(write('310100')).toBe('310100');
    expect(write(110000)).toBe('110000');
    expect(write('910000')).toBe('910000');
    expect(read('310100')).toBe('310100');
    expect(read(null)).toBe('');
  });

  it('refuses what is not a region code with 10002', () => {
    for (const bad of ['Shanghai', '3', '31 01 00', '1234567890123', 3101.5, true, ['310100'], { id: '310100' }]) {
      expect(expectBadValue(() => write(bad)).message).toContain('region code');
    }
  });
});
