import { describe, expect, it } from 'vitest';
import { fieldTypeOf } from '../../src/fields/registry.js';
import { expectBadValue, readerOf, writerOf } from './field-fixture.js';

describe('36 Checkbox', () => {
  const write = writerOf('36');
  const read = readerOf('36');
  const type = fieldTypeOf('36');

  it('checks on true, "true", "True", 1, "1", "yes"', () => {
    for (const value of [true, 'true', 'True', 'TRUE', 1, '1', ' yes ']) expect(write(value)).toBe(true);
  });

  it('unchecks on false, "false", "False", 0, "0", "no", "" and nothing', () => {
    for (const value of [false, 'false', 'False', 0, '0', 'no', '', null, undefined]) expect(write(value)).toBe(false);
  });

  it('refuses anything else with 10002', () => {
    for (const bad of ['maybe', 2, -1, 0.5, 'on', [true], { checked: true }]) {
      expect(expectBadValue(() => write(bad)).message).toContain('expected true or false');
    }
  });

  it('reads a boolean; unchecked counts as empty', () => {
    expect(read(true)).toBe(true);
    expect(read(false)).toBe(false);
    expect(read(null)).toBe(false);
    expect(type.isEmpty!(false)).toBe(true);
    expect(type.isEmpty!(true)).toBe(false);
  });
});
