import fc from 'fast-check';
import { anyValue, deepValue, refTo } from './hostile-values.js';
import { objectOf, type WireValue } from './wire-value.js';

/**
 * Filter trees for `rows/list` (docs/api.md, "The filter language"): the schema only says
 * `filter` takes anything, and anything at all is refused at its first key, so the compiler and
 * the SQL it writes would never be reached. These are trees of the documented shape with real
 * fields, every operator (and some that do not exist), values of every kind, and the wrong
 * nesting, case and types here and there.
 */

const OPERATORS = [
  'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'between', 'notbetween', 'in', 'notin', 'contains', 'concurrent', 'notcontains',
  'startswith', 'notstartswith', 'endswith', 'notendswith', 'isempty', 'isnotempty',
  'EQ', 'Between', 'like', 'regex', '', '__proto__',
];

const SYSTEM_FIELDS = ['rowid', 'id', '_createdAt', 'ctime', '_updatedAt', 'utime', '_createdBy', 'caid', '_updatedBy', 'uaid', '_owner', 'ownerid', '_deleted_at'];

const PERIODS: WireValue[] = ['today', 'TODAY', 'thisWeek', 'last7Day', 'nextQuarter', 'lastYear', 1, 12, 33, 99, 0, '2026-03-14', '2026-03-14 09:30', '2026-02-30', 'user-self'];

const conditionValue: fc.Arbitrary<WireValue> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<WireValue>('ACME', '', 'Open', 'Paid', 12.5, '12.5', 0, -1, true, null, '%', '_', "'", '\\', 'Infinity', '1e309') },
  { weight: 2, arbitrary: fc.constantFrom(...PERIODS) },
  { weight: 2, arbitrary: fc.array(fc.oneof(refTo('option'), fc.constantFrom<WireValue>(1, 'x', null, 'today')), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<WireValue>([1, 10], [null, 5], ['2024-01-01', 'today'], [10, 1], []) },
  { weight: 1, arbitrary: deepValue(fc.constant<WireValue>(1)) },
  { weight: 1, arbitrary: anyValue },
);

/** Each key present nine times in ten: a missing key is a case, not the rule. */
function mostlyPresent(entries: Array<[string, fc.Arbitrary<WireValue>]>): fc.Arbitrary<WireValue> {
  return fc
    .tuple(...entries.map(([key, value]) => fc.oneof({ weight: 9, arbitrary: value.map((v): [string, WireValue] => [key, v]) }, { weight: 1, arbitrary: fc.constant(undefined) })))
    .map((present) => objectOf(present.filter((entry): entry is [string, WireValue] => entry !== undefined)));
}

/** A condition of the documented shape, but with any field, operator and value: mostly refused, and by name. */
const anyCondition = mostlyPresent([
  ['type', fc.constantFrom<WireValue>('condition', 'Condition', 'CONDITION', 'group', 'x', 1)],
  ['field', fc.oneof({ weight: 4, arbitrary: refTo('field') }, { weight: 2, arbitrary: fc.constantFrom(...SYSTEM_FIELDS) }, { weight: 1, arbitrary: anyValue })],
  ['operator', fc.oneof({ weight: 6, arbitrary: fc.constantFrom<WireValue>(...OPERATORS) }, { weight: 1, arbitrary: anyValue })],
  ['value', conditionValue],
]);

const TEXT_OPERATORS = ['eq', 'ne', 'contains', 'concurrent', 'notcontains', 'startswith', 'notstartswith', 'endswith', 'notendswith', 'isempty', 'isnotempty'];
const ORDER_OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'between', 'notbetween', 'isempty', 'isnotempty'];
const CHOICE_OPERATORS = ['eq', 'ne', 'in', 'notin', 'isempty', 'isnotempty'];

function typed(fields: string[], operators: string[], value: fc.Arbitrary<WireValue>): fc.Arbitrary<WireValue> {
  return fc
    .record({ field: fc.constantFrom(...fields), operator: fc.constantFrom(...operators), value })
    .map(({ field, operator, value: v }) => objectOf([['type', 'condition'], ['field', field], ['operator', operator], ['value', v]]));
}

/**
 * Conditions an operator of the field's type takes, on the fuzz worksheets' fields (fuzz-world.ts)
 * and the system fields, with values of the right kind: these get past the checks to the SQL.
 */
const typedCondition: fc.Arbitrary<WireValue> = fc.oneof(
  typed(['title'], TEXT_OPERATORS, fc.constantFrom<WireValue>('ACME', 'a', '', '%', '_', "'", '\\', 'İ', 'ß', 'ÄCME', ['ACME', 'Globex'], 5)),
  typed(['amount'], ORDER_OPERATORS, fc.constantFrom<WireValue>(0, 12.5, '12.5', -3.25, 1e6, [0, 100], [null, 5], [5, null], [100, 0], '9007199254740993')),
  typed(['status'], CHOICE_OPERATORS, fc.oneof(refTo('option'), fc.array(refTo('option'), { maxLength: 3 }))),
  typed(['due', '_createdAt', 'utime'], ORDER_OPERATORS, fc.oneof(fc.constantFrom(...PERIODS), fc.constantFrom<WireValue>(['2024-01-01', '2024-12-31'], ['today', 'nextYear'], '2024-03-25 15:52'))),
  typed(['done'], ['isempty', 'isnotempty'], fc.constant<WireValue>(null)),
  typed(['rowid', '_owner', '_createdBy'], CHOICE_OPERATORS, fc.oneof(refTo('scratchRecord', 'fixtureRecord'), fc.constantFrom<WireValue>('user-self', 'user-api', ['user-self']))),
);

const condition = fc.oneof({ weight: 3, arbitrary: typedCondition }, { weight: 1, arbitrary: anyCondition });

/** A group of conditions and groups, nested up to three deep (one more than the documented limit). */
export const filterTree: fc.Arbitrary<WireValue> = fc.letrec<{ node: WireValue; group: WireValue }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', maxDepth: 3 }, condition, condition, tie('group')),
  group: mostlyPresent([
    ['type', fc.constantFrom<WireValue>('group', 'group', 'Group', 'GROUP', 'condition')],
    ['logic', fc.oneof({ weight: 6, arbitrary: fc.constantFrom<WireValue>('AND', 'OR', 'and', 'Or') }, { weight: 1, arbitrary: fc.constantFrom<WireValue>('XOR', '', null) })],
    ['children', fc.oneof({ weight: 8, arbitrary: fc.array(tie('node'), { maxLength: 4 }) }, { weight: 1, arbitrary: anyValue })],
  ]),
})).group;

/** What a client might send as `filter`: mostly a tree, sometimes a bare condition, sometimes anything. */
export const filterValue: fc.Arbitrary<WireValue> = fc.oneof(
  { weight: 6, arbitrary: filterTree },
  { weight: 2, arbitrary: condition },
  { weight: 1, arbitrary: anyValue },
);
