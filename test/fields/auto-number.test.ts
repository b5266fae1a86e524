import { describe, expect, it } from 'vitest';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { expectBadValue, fieldOf, readerOf, writerOf } from './field-fixture.js';

describe('33 AutoNumber', () => {
  const write = writerOf('33');
  const read = readerOf('33');

  it('reads as text, zero-padded to config.length', () => {
    expect(read(7)).toBe('7');
    expect(read(7, fieldOf('33', { length: 4 }))).toBe('0007');
    expect(read(12345, fieldOf('33', { length: 4 }))).toBe('12345');
    expect(read(null, fieldOf('33', { length: 4 }))).toBe('');
  });

  it('is assigned by the system and refuses written values', async () => {
    const reserved: Array<[string, number]> = [];
    const reserveSequence = async (fieldId: string, count: number) => (reserved.push([fieldId, count]), 41);
    const field = fieldOf('33');
    expect(await fieldTypeOf('33').assignOnInsert!(field, 3, { reserveSequence })).toEqual([41, 42, 43]);
    expect(reserved).toEqual([[field.id, 3]]);
    expect(expectBadValue(() => write(5)).message).toContain('assigned by the system');
    expect(write(null)).toBeNull();
  });
});
