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
    expect(await fieldTypeOf('33').assignOnInsert!(field, 3, { now: 0, timeZone: 'UTC', reserveSequence })).toEqual([41, 42, 43]);
    expect(reserved).toEqual([[field.id, 3]]);
    expect(expectBadValue(() => write(5)).message).toContain('assigned by the system');
    expect(write(null)).toBeNull();
  });

  it('composes the public rule segments: text, the created time in the zone, the padded sequence', () => {
    const field = fieldOf('33', { rule: [{ type: 'text', value: 'ORD-' }, { type: 'createdTime', format: 'YYYYMMDD' }, { type: 'text', value: '-' }, { type: 'sequence', length: 4, repeat: 'day' }] });
    const refs = { accounts: new Map(), departments: new Map(), regions: new Map(), records: new Map(), timeZone: 'Asia/Shanghai' };
    // 2026-03-14 20:00 UTC is already the 15th in Shanghai.
    expect(fieldTypeOf('33').read(7, field, refs, { createdAt: Date.parse('2026-03-14T20:00:00Z') })).toBe('ORD-20260315-0007');
  });

  it('counts a repeating sequence per period of creation, in the zone', async () => {
    const keys: string[] = [];
    const field = fieldOf('33', { rule: [{ type: 'sequence', repeat: 'month' }] });
    const reserveSequence = async (key: string) => (keys.push(key), 1);
    await fieldTypeOf('33').assignOnInsert!(field, 1, { now: Date.parse('2026-03-31T17:00:00Z'), timeZone: 'Asia/Shanghai', reserveSequence });
    await fieldTypeOf('33').assignOnInsert!(field, 1, { now: Date.parse('2026-03-31T17:00:00Z'), timeZone: 'UTC', reserveSequence });
    expect(keys).toEqual([`${field.id}:202604`, `${field.id}:202603`]);
  });
});
