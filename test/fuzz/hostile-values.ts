import fc from 'fast-check';
import { Deep, Huge, RawNumber, Ref, Repeat, objectOf, type PoolName, type WireValue } from './wire-value.js';

/**
 * The hostile inputs of issue 5, as fast-check arbitraries: values of the wrong type, strings
 * with NUL and lone surrogates, numbers that are not finite or not exact, huge and deep values,
 * unknown (often system-looking) keys and hostile path ids.
 */

/** Strings that have broken servers before: control characters, lone surrogates, injection, numbers in disguise. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000\u0000\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\ufeff',
  '\u202eevil',
  '\uffff',
  'é',
  '表格',
  '😀',
  'null',
  'undefined',
  'true',
  'Infinity',
  '-Infinity',
  '+Infinity',
  '1e309',
  '-1e309',
  'NaN',
  '-0',
  '9007199254740993',
  '-9007199254740993',
  '123456789012345678901234567890',
  '0x1F',
  ' 12 ',
  '1,5',
  '1e-400',
  "' OR '1'='1",
  '"; DROP TABLE apps; --',
  "'); DELETE FROM worksheets; --",
  '%00',
  '../../etc/passwd',
  '${7*7}',
  '<script>alert(1)</script>',
  '\\',
  '\n\r\t',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '2024-02-30',
  '0000-00-00',
  '9999-99-99',
  '+275760-09-13',
  '2024-03-25T25:61:61Z',
  '#GGGGGG',
  'a'.repeat(101),
  'b'.repeat(5000),
];

/** Number literals as strings: what lenient coercion might take for a number. */
export const NUMBERS_AS_STRINGS: readonly string[] = ['Infinity', '-Infinity', '1e309', '-1e309', 'NaN', '-0', '9007199254740993', '1.5', '0', '-1', '1e3', '0x10', ''];

/** Number literals JSON allows and `JSON.stringify` never writes; `1e309` parses to Infinity. */
export const RAW_NUMBER_LITERALS: readonly string[] = ['1e309', '-1e309', '-0', '-0.0', '1e-400', '9007199254740993', '123456789012345678901234567890', '1E2', '0.1e1'];

/** Keys a handler must never take from a body: column names, system fields, prototype keys. */
export const SYSTEM_LOOKING_KEYS: readonly string[] = [
  'id',
  'app_id',
  'appId',
  'organization_id',
  'organizationId',
  'owner_id',
  'created_at',
  'updated_at',
  '_deleted_at',
  '_created_by',
  '_owner',
  '_updated_by',
  '_created_at',
  '_updated_at',
  'worksheet_id',
  'row_id',
  'sign_hash',
  'app_key',
  'position',
  'section_id',
  'fields',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  'a\u0000b',
];

/**
 * Path ids that are not ids: NUL, encoded traversal, junk percent-encoding, very long, SQL, unicode.
 * Already URL text. Dot segments (`..`, `.`, `%2e%2e`) are left out: `app.inject`, like every
 * WHATWG URL client, resolves them before sending, so `DELETE /v3/app/worksheets/..` would be sent
 * as `DELETE /v3/app` and delete the application (see isDotSegment).
 */
export const HOSTILE_PATH_IDS: readonly string[] = [
  '%00',
  'a%00b',
  '\u0000',
  '..%2f..%2fapp',
  '..%2F',
  '...',
  '%2F',
  '%5C',
  '%zz',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%F0%9F%98%80',
  '%E8%A1%A8',
  '%20',
  '%0A',
  '%3F',
  '%23',
  'x'.repeat(100),
  'x'.repeat(101),
  'y'.repeat(5000),
  "'%20OR%20'1'%3D'1",
  '1%3BDROP%20TABLE%20apps',
  'ws_x',
  'null',
  'undefined',
  '0',
  '-1',
  'Infinity',
  '1e309',
  '__proto__',
  'constructor',
  '_createdAt',
  'batch',
  'list',
  'ffffffffffffffffffffffff',
  '00000000-0000-0000-0000-000000000000',
];

/** A long string by its length: the text itself is made when the request is sent. */
export const hugeString: fc.Arbitrary<WireValue> = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.constant(65_536) }, { weight: 2, arbitrary: fc.constant(300_000) }, { weight: 1, arbitrary: fc.constant(2_000_000) }),
    fc.constantFrom('x', 'é', '表', '\u0000', '😀', 'a\u0000'),
  )
  .map(([length, unit]) => new Huge(length, unit));

/** A value nested `depth` levels, e.g. 10,000 arrays: serialised without recursion. */
export function deepValue(leaf: fc.Arbitrary<WireValue>): fc.Arbitrary<WireValue> {
  return fc
    .tuple(fc.constantFrom(64, 1_000, 10_000, 10_000, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object'), leaf)
    .map(([depth, container, inner]) => new Deep(depth, container, inner));
}

export const rawNumber: fc.Arbitrary<WireValue> = fc.constantFrom(...RAW_NUMBER_LITERALS).map((literal) => new RawNumber(literal));

/** Strings: the hostile list, arbitrary unicode (lone surrogates included), and plain short text. */
export const hostileString: fc.Arbitrary<WireValue> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  // 'binary' never yields half a surrogate pair; these mixes do, with NUL and ordinary text.
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('\ud800', '\udfff', '\u0000', 'a', 'é', '\ud83d\ude00'), maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom(...NUMBERS_AS_STRINGS) },
  { weight: 1, arbitrary: hugeString },
);

/** Numbers at and beyond every boundary a route might check. */
export const hostileNumber: fc.Arbitrary<WireValue> = fc.oneof(
  fc.constantFrom(0, -1, 1, 1.5, -0.5, 1000, 1001, 2 ** 31, 2 ** 53, -(2 ** 53), 1e21, 1e300, -1e300, Number.MIN_VALUE),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  rawNumber,
);

/** Any value at all, of any type; shallow, with the occasional huge or deep one. */
export const anyValue: fc.Arbitrary<WireValue> = fc.letrec<{ value: WireValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: fc.constantFrom<WireValue>(null, true, false) },
    { weight: 4, arbitrary: hostileNumber },
    { weight: 6, arbitrary: hostileString },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 2, arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...SYSTEM_LOOKING_KEYS), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 3 }).map(objectOf) },
    { weight: 1, arbitrary: deepValue(fc.constantFrom<WireValue>(null, 1, 'x', '\u0000')) },
  ),
})).value;

/** A value of the wrong type for a slot of `type` (or any value when the slot takes anything). */
export function wrongTypeFor(type: string | undefined): fc.Arbitrary<WireValue> {
  const pick = (...arbitraries: Array<fc.Arbitrary<WireValue>>) => fc.oneof(...arbitraries, anyValue);
  switch (type) {
    case 'string':
      return pick(hostileNumber, fc.constantFrom<WireValue>(null, true, [], {}, ['x']));
    case 'integer':
    case 'number':
      return pick(fc.constantFrom(...NUMBERS_AS_STRINGS), rawNumber, fc.constantFrom<WireValue>(null, true, 1.5, [], {}, [1], 'abc'));
    case 'boolean':
      return pick(fc.constantFrom<WireValue>('yes', 'TRUE', 2, -1, null, [], {}, 'true ', '\u0000'));
    case 'array':
      return pick(fc.constantFrom<WireValue>(null, 'x', 1, {}, { 0: 'a', length: 1 }, [[]]));
    case 'object':
      return pick(fc.constantFrom<WireValue>(null, 'x', 1, [], [{}], true));
    default:
      return anyValue;
  }
}

/**
 * A real id from one of the fixture's pools (a pool named twice is twice as likely); the index
 * picks one of the pool, modulo its size (60 is a multiple of every pool size, so none is favoured).
 */
export function refTo(...pools: PoolName[]): fc.Arbitrary<Ref> {
  return fc.tuple(fc.constantFrom(...pools), fc.nat({ max: 59 })).map(([pool, index]) => new Ref(pool, index));
}

/** Many copies of an element: arrays past their `maxItems`, full batches. */
export function manyOf(element: fc.Arbitrary<WireValue>, counts: number[]): fc.Arbitrary<WireValue> {
  return fc.tuple(fc.constantFrom(...counts), element).map(([count, value]) => new Repeat(count, value));
}
