import { describe, expect, it } from 'vitest';
import type { FieldDefinitionDraft, FieldOption } from '../../src/fields/field-type.js';
import { MAX_OPTIONS, prepareOptions } from '../../src/fields/kinds/option-list.js';
import { caught, fieldOf } from './field-fixture.js';

function draft(options: FieldDefinitionDraft['options']): FieldDefinitionDraft {
  return { name: 'Colour', options, config: {} };
}

const BEFORE: FieldOption[] = [
  { key: 'k-red', value: 'Red', index: 1, color: '#F52222' },
  { key: 'k-green', value: 'Green', index: 2 },
  { key: 'k-blue', value: 'Blue', index: 3 },
];
const previous = fieldOf('9', {}, BEFORE);

describe('prepareOptions', () => {
  it('gives new options fresh distinct keys and indexes in written order', () => {
    // The wire allows a number as option text (the draft's type says text).
    const numeric = { value: 7 } as unknown as FieldDefinitionDraft['options'][number];
    const options = prepareOptions(draft([{ value: 'A' }, { value: 'B', color: '#00C345' }, numeric]), null);
    expect(options.map((o) => [o.value, o.index])).toEqual([['A', 1], ['B', 2], ['7', 3]]);
    expect(options[1].color).toBe('#00C345');
    expect(new Set(options.map((o) => o.key)).size).toBe(3);
    for (const option of options) expect(option.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps keys on edit: matched by key (even when renamed) or by text', () => {
    const options = prepareOptions(draft([{ key: 'k-green', value: 'Lime', index: 1 }, { value: 'Red', index: 2 }, { value: 'Blue', index: 3 }]), previous);
    expect(options).toEqual([
      { key: 'k-green', value: 'Lime', index: 1 },
      { key: 'k-red', value: 'Red', index: 2 },
      { key: 'k-blue', value: 'Blue', index: 3 },
    ]);
  });

  it('keeps options left out of an edit, flagged isDeleted', () => {
    const options = prepareOptions(draft([{ key: 'k-red', value: 'Red', index: 1 }]), previous);
    expect(options).toEqual([
      { key: 'k-red', value: 'Red', index: 1 },
      { key: 'k-green', value: 'Green', index: 2, isDeleted: true },
      { key: 'k-blue', value: 'Blue', index: 3, isDeleted: true },
    ]);
  });

  it('keeps an option sent with isDeleted as deleted', () => {
    const options = prepareOptions(draft([{ key: 'k-red', value: 'Red' }, { key: 'k-blue', value: 'Blue', isDeleted: true }, { key: 'k-green', value: 'Green' }]), previous);
    expect(options.find((o) => o.key === 'k-blue')).toEqual({ key: 'k-blue', value: 'Blue', index: 3, isDeleted: true });
    expect(options.filter((o) => !o.isDeleted).map((o) => o.key)).toEqual(['k-red', 'k-green']);
  });

  it('never gives two options the same key', () => {
    // "Green" matches k-green by text, but k-green is claimed by the renamed option.
    const options = prepareOptions(draft([{ value: 'Green' }, { key: 'k-green', value: 'Olive' }]), previous);
    const live = options.filter((o) => !o.isDeleted);
    expect(live.map((o) => o.value)).toEqual(['Green', 'Olive']);
    expect(live[1].key).toBe('k-green');
    expect(live[0].key).not.toBe('k-green');
    expect(new Set(options.map((o) => o.key)).size).toBe(options.length);
  });

  it('refuses the same key twice with 10002', () => {
    const error = caught(() => prepareOptions(draft([{ key: 'k-red', value: 'Red' }, { key: 'k-red', value: 'Scarlet' }]), previous));
    expect(error.code).toBe(10002);
    expect(error.message).toContain('options[1].key');
  });

  it('refuses duplicate option text with 10002 naming the field and position', () => {
    const error = caught(() => prepareOptions(draft([{ value: 'A' }, { value: 'B' }, { value: 'A' }]), null));
    expect(error.code).toBe(10002);
    expect(error.message).toContain('field "Colour" options[2]');
    expect(error.message).toContain('"A" appears twice');
  });

  it('refuses empty text, a non-object, an unknown key, a bad index with 10002', () => {
    for (const bad of [[{ value: '' }], [{ value: '   ' }], [{}], ['Red'], [null], [{ key: 'k-none', value: 'X' }], [{ value: 'X', index: 'first' }], [{ value: 'X', key: 5 }]] as FieldDefinitionDraft['options'][]) {
      const error = caught(() => prepareOptions(draft(bad), previous));
      expect(error.code).toBe(10002);
      expect(error.message).toContain('field "Colour" options[0]');
    }
  });

  it(`allows ${MAX_OPTIONS} options and refuses more with 100006`, () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => ({ value: `Option ${i}` }));
    expect(prepareOptions(draft(many(MAX_OPTIONS)), null)).toHaveLength(MAX_OPTIONS);
    const error = caught(() => prepareOptions(draft(many(MAX_OPTIONS + 1)), null));
    expect(error.code).toBe(100006);
    expect(error.message).toContain(`at most ${MAX_OPTIONS} options, got ${MAX_OPTIONS + 1}`);
  });
});
