import fc from 'fast-check';
import { allFieldTypes } from '../../src/fields/registry.js';
import { anyValue, deepValue, hostileString, NUMBERS_AS_STRINGS, rawNumber, refTo } from './hostile-values.js';
import { filterValue } from './filter-trees.js';
import type { WireValue } from './wire-value.js';

/**
 * Plausible values for properties by their name. A schema alone says `id` is a string; a random
 * string is refused at the first lookup, so the handler's deeper code (value checks, SQL, the
 * unique index, the presenter) would never run. These hints put real ids, field aliases, option
 * texts and typed field values where the name says they belong. They key on property names, not
 * routes, so a new route with the usual names benefits without a change here; a property without
 * a hint is generated from its schema alone.
 */

const TYPE_CODES = allFieldTypes().flatMap((type) => [type.code, type.name]);

/** System fields a list may sort by or project. */
const SYSTEM_FIELD_NAMES = ['_createdAt', '_updatedAt', 'id', 'ctime', 'utime', 'rowid', '_deleted_at', '_owner'];

/** Values for a record's field: each fixture type's good forms, near misses and anything at all. */
export const fieldValue: fc.Arbitrary<WireValue> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<WireValue>('ACME', '', 'Order 42', 12.5, '12.5', 0, -3, '2024-03-25', '2024-02-30', '2024-03-25T10:00:00Z', true, false, 'true', 'True', 1, null) },
  { weight: 1, arbitrary: refTo('option') },
  { weight: 1, arbitrary: fc.array(refTo('option'), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<WireValue>([], [''], [null], { x: 121.5, y: 31.2 }, { accountId: 'user-api' }, ['Open'], 'Open') },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(...NUMBERS_AS_STRINGS) },
  { weight: 1, arbitrary: rawNumber },
  // Deep values where a field's value goes: the type refuses them and its message must not choke on them.
  { weight: 1, arbitrary: deepValue(fc.constantFrom<WireValue>(null, 1, 'x', '\u0000', 'Open')) },
  { weight: 2, arbitrary: anyValue },
);

const alias: fc.Arbitrary<WireValue> = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/), fc.constantFrom('title', 'amount', 'status', 'due', 'done', '_x', '1abc', 'a-b', ''));

const name: fc.Arbitrary<WireValue> = fc.oneof({ weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) }, { weight: 1, arbitrary: hostileString });

const fieldRef: fc.Arbitrary<WireValue> = fc.oneof({ weight: 6, arbitrary: refTo('field') }, { weight: 1, arbitrary: fc.constantFrom(...SYSTEM_FIELD_NAMES) });
const recordRef: fc.Arbitrary<WireValue> = refTo('scratchRecord', 'fixtureRecord');

/** By the property's name, or by its parent's and its own (`rows.id`), which wins. */
const BY_NAME: Record<string, fc.Arbitrary<WireValue>> = {
  'fields.id': fieldRef,
  'editFields.id': fieldRef,
  'rows.id': recordRef,
  id: fc.oneof(fieldRef, recordRef),
  rowIds: recordRef,
  row_id: recordRef,
  worksheets: refTo('scratchWorksheet', 'fixtureWorksheet', 'foreignWorksheet'),
  worksheet_id: refTo('scratchWorksheet', 'fixtureWorksheet', 'scratchWorksheet', 'fixtureWorksheet', 'foreignWorksheet'),
  removeFields: refTo('field'),
  fields: fieldRef,
  field: fieldRef,
  sectionId: fc.oneof(refTo('section'), fc.constant('')),
  parentId: refTo('section'),
  key: refTo('option'),
  value: fieldValue,
  filter: filterValue,
  // Empty is how clients usually send these; anything else is refused until views and search exist.
  viewId: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileString }),
  search: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('ACME', 'a\u0000b', '%', "'") }),
  type: fc.constantFrom(...TYPE_CODES),
  alias,
  name,
  color: fc.constantFrom('#2196F3', '#abc', '#ABCDEF12', 'blue', ''),
};

/**
 * The hint for a property (for an array, for its items) at a dotted path such as `rows.fields.id`,
 * or undefined. Hints are used where the schema leaves the value's content open (strings, untyped
 * values); enums and numbers keep their schema.
 */
export function hintFor(path: string): fc.Arbitrary<WireValue> | undefined {
  const names = path.split('.');
  for (const key of [names.slice(-2).join('.'), names[names.length - 1]]) if (Object.hasOwn(BY_NAME, key)) return BY_NAME[key];
  return undefined;
}
