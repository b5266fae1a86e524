import { describe, expect, it } from 'vitest';
import { allFieldTypes, resolveFieldType, typeAliases } from '../../src/fields/registry.js';
import { caught } from './field-fixture.js';

/** The other names clients send for field types (docs/api.md, "Type names on input"). */
describe('field type aliases', () => {
  const publicNames = new Set(allFieldTypes().map((t) => t.name.toLowerCase()));

  it('each name an existing code and none is a public name', () => {
    const codes = new Set(allFieldTypes().map((t) => t.code));
    for (const [alias, code] of Object.entries(typeAliases())) {
      expect(codes.has(code)).toBe(true);
      expect(publicNames.has(alias.toLowerCase())).toBe(false);
    }
  });

  it('resolve in any case and with _, - or spaces between the words', () => {
    for (const [alias, code] of Object.entries(typeAliases())) {
      const words = alias.replace(/([a-z])([A-Z])/g, '$1 $2').split(' ');
      for (const spelling of [alias, alias.toUpperCase(), words.join('_').toUpperCase(), words.join('-').toLowerCase(), ` ${words.join(' ')} `]) {
        expect(resolveFieldType(spelling, 'type').code).toBe(code);
      }
    }
  });

  it('cover the short names real clients send', () => {
    const expected: Record<string, string> = { Phone: 'PhoneNumber', Money: 'Currency', Member: 'Collaborator', MultiSelect: 'MultipleSelect', File: 'Attachment', Radio: 'SingleSelect' };
    for (const [alias, name] of Object.entries(expected)) expect(resolveFieldType(alias, 'type').name).toBe(name);
  });

  it('let public names win: RELATION is Relation (29), DATE_TIME is DateTime', () => {
    expect(resolveFieldType('RELATION', 'type').code).toBe('29');
    expect(resolveFieldType('DATE_TIME', 'type').code).toBe('16');
  });

  it('do not make separators alone a name', () => {
    for (const input of ['_', '-', ' _ ']) expect(caught(() => resolveFieldType(input, 'fields[0].type')).code).toBe(10002);
  });
});
