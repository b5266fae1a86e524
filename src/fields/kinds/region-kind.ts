import { defineFieldType } from '../define-field-type.js';
import type { FieldType } from '../field-type.js';
import { badFieldValue, show } from './value-errors.js';

/**
 * A region (administrative division) type, written as its code (`"310101"` or 310101) and stored as
 * it; read as `{code, name, path}` (`{code: "440305", name: "南山区", path: "广东省/深圳市/南山区"}`),
 * the names resolved once per page of rows. The code must name a region of the `regions` table no
 * deeper than `deepestLevel` (1 a province, 2 a city, 3 a county), which the records service checks
 * with the other references of a write. The three codes differ only in that level.
 */
export function regionKind(spec: { code: string; name: string; deepestLevel: number }): FieldType {
  return defineFieldType({
    code: spec.code,
    name: spec.name,
    valueKind: 'text',
    column: 'text',
    filterKind: 'region',
    referenceKind: 'region',
    availability: 'ready',
    write(value, _field, ctx) {
      const code = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
      if (typeof code !== 'string' || !/^\d{2,12}$/.test(code)) throw badFieldValue(ctx.label, `expected a region code such as "310100", got ${show(value)}`);
      return code;
    },
    read: (stored, _field, refs) => {
      if (stored === null) return null;
      const code = stored as string;
      const region = refs.regions.get(code);
      return { code, name: region?.name ?? '', path: region?.path ?? '' };
    },
    references: (stored) => (stored === null ? null : { kind: 'region', ids: [stored as string], deepestLevel: spec.deepestLevel }),
  });
}
