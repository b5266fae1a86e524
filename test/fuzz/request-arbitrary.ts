import fc from 'fast-check';
import { anyValue, HOSTILE_PATH_IDS, hostileString, refTo } from './hostile-values.js';
import type { Operation, Parameter } from './openapi-operations.js';
import { percentEncode, printable, type BodySpec, type FuzzRequest, type PathId, type QueryPart } from './fuzz-request.js';
import type { Credentials } from './fuzz-world.js';
import { hintFor } from './property-hints.js';
import { keepOffFixture } from './request-policy.js';
import { arbitraryFor, type JsonSchema, type SchemaContext } from './schema-arbitrary.js';
import type { WireValue } from './wire-value.js';

/**
 * Malformed (and some well-formed) requests for every documented operation: hostile path ids,
 * query strings, credentials, content types and bodies: schema-conforming, schema-breaking, of
 * the wrong top-level type, not JSON at all, or not UTF-8.
 */

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const JSON_TYPE = 'application/json';

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/json, text/plain',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
];

/** Bodies that are not JSON, or JSON the parser must refuse (prototype keys), or not one value. */
const NOT_JSON = [
  '{',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  'Infinity',
  '[1,2',
  'true false',
  '\u0000',
  '{"name":"a\u0000b"}',
  '{"fields":[{"id":"title","value":"\t"}]}',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":{"__proto__":[]}}',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '{"a":1e999999999999}',
  '{"pageSize":01}',
  '{"pageSize":1.}',
  '{"pageSize":.5}',
  '{"pageSize":+1}',
  '{"pageSize":0x10}',
  '{"\\ud800":"\\udc00"}',
  '{"\\u0000":1}',
  '"\\u',
  ' ',
];

/** Top-level JSON values of the wrong type for a route that takes an object. */
const WRONG_TOP_LEVEL: WireValue[] = [null, 1, 'x', [], [{}], true, 0, '', {}];

/** Invalid UTF-8: stray continuation bytes, truncated and overlong sequences, encoded surrogates, bytes past U+10FFFF. */
const BAD_UTF8 = ['ff', 'fe', 'c328', 'a0a1', 'e28228', 'e228a1', 'f0288c28', 'c0af', 'e080af', 'eda080', 'edbfbf', 'f4908080', 'c0', '80', 'f8a1a1a1a1', 'e2'];

/** Query strings that are not what any route expects. */
const HOSTILE_QUERIES = [
  '%zz',
  'a=%zz',
  'responseFormat=md&responseFormat=json',
  'responseFormat[]=md',
  'responseFormat[a]=md',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  `a=${'x'.repeat(10_000)}`,
  '=',
  '&&&',
  'responseFormat=%00',
  'responseFormat',
  'pageSize=Infinity',
  'a=%ED%A0%80',
];

const credentials: fc.Arbitrary<FuzzRequest['credentials']> = fc.oneof(
  { weight: 80, arbitrary: fc.constant<Credentials>('own') },
  { weight: 4, arbitrary: fc.constant<Credentials>('readOnly') },
  { weight: 5, arbitrary: fc.constant<Credentials>('foreign') },
  { weight: 4, arbitrary: fc.constant<Credentials>('none') },
  { weight: 3, arbitrary: fc.constant<Credentials>('wrongSign') },
  // Header values can only hold tab, printable ASCII and latin-1 on the wire.
  {
    weight: 4,
    arbitrary: fc.record({
      appKey: fc.oneof(fc.string({ unit: fc.constantFrom('a', 'F', '0', ' ', '\t', 'ÿ', '%', '"'), maxLength: 20 }), fc.constant('f'.repeat(16)), fc.constant('a'.repeat(8_000))),
      sign: fc.oneof(fc.string({ maxLength: 100 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, '')), fc.constant('='.repeat(88)), fc.constant('')),
    }),
  },
);

function pathId(parameter: Parameter): fc.Arbitrary<PathId> {
  const real = hintFor(parameter.name) ?? refTo('scratchWorksheet', 'fixtureWorksheet', 'scratchRecord', 'fixtureRecord', 'field');
  // Suffixes never add a path segment: the request must stay on the route it was made for.
  const suffix = fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('%00', '%20', '/', 'x', '%2F', '.', '%', '%C0') });
  return fc
    .oneof(
      { weight: 12, arbitrary: fc.record({ value: real, suffix }) },
      { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_PATH_IDS).map((raw) => ({ raw })) },
      { weight: 1, arbitrary: fc.record({ value: hostileString, suffix: fc.constant('') }) },
    )
    .filter((id) => !isDotSegment('raw' in id ? id.raw : typeof id.value === 'string' ? percentEncode(id.value) + id.suffix : `id${id.suffix}`));
}

/**
 * A segment the URL parser resolves away (`.`, `..`, `%2e%2e`): the request would go to another
 * route than the one it was made for, past the fixture policy. Real ids never are one.
 */
function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}

function query(parameters: Parameter[], ctx: SchemaContext): fc.Arbitrary<QueryPart[]> {
  const documented = parameters.map((p) => fc.option(arbitraryFor(p.schema, ctx, p.name).map((value): QueryPart => ({ name: p.name, value })), { freq: 2, nil: undefined }));
  const hostile = fc.oneof(
    { weight: 6, arbitrary: fc.constant<QueryPart[]>([]) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...HOSTILE_QUERIES).map((raw): QueryPart => ({ raw })), { minLength: 1, maxLength: 2 }) },
  );
  return fc.tuple(fc.tuple(...documented), hostile).map(([known, extra]) => [...known.filter((q): q is QueryPart => q !== undefined), ...extra]);
}

function body(schema: JsonSchema | null, resolve: SchemaContext['resolve']): fc.Arbitrary<BodySpec> {
  const none = fc.constant<BodySpec>({ kind: 'none' });
  const json = (value: fc.Arbitrary<WireValue>) => value.map((v): BodySpec => ({ kind: 'json', value: v, contentType: JSON_TYPE }));
  const text = fc.record({ text: fc.constantFrom(...NOT_JSON), contentType: fc.constant(JSON_TYPE) }).map((b): BodySpec => ({ kind: 'text', ...b }));
  if (!schema) {
    return fc.oneof({ weight: 12, arbitrary: none }, { weight: 1, arbitrary: json(anyValue) }, { weight: 1, arbitrary: text });
  }
  const conforming = arbitraryFor(schema, { mode: 'conforming', resolve });
  const mutated = arbitraryFor(schema, { mode: 'mutated', resolve });
  return fc.oneof(
    { weight: 45, arbitrary: json(conforming) },
    { weight: 30, arbitrary: json(mutated) },
    { weight: 5, arbitrary: json(fc.constantFrom(...WRONG_TOP_LEVEL)) },
    { weight: 4, arbitrary: text },
    {
      weight: 5,
      arbitrary: fc.record({ value: conforming, at: fc.nat({ max: 20 }), bytes: fc.constantFrom(...BAD_UTF8) }).map((b): BodySpec => ({ kind: 'badUtf8', ...b, contentType: JSON_TYPE })),
    },
    { weight: 3, arbitrary: none },
    { weight: 2, arbitrary: fc.constant<BodySpec>({ kind: 'text', text: '', contentType: JSON_TYPE }) },
    { weight: 3, arbitrary: fc.record({ value: conforming, contentType: fc.constantFrom(...CONTENT_TYPES) }).map((b): BodySpec => ({ kind: 'json', ...b })) },
  );
}

function requestFor(operation: Operation, resolve: SchemaContext['resolve']): fc.Arbitrary<FuzzRequest> {
  const mode = fc.constantFrom<SchemaContext['mode']>('conforming', 'mutated');
  return fc
    .record({
      method: fc.oneof({ weight: 19, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      prefix: fc.oneof({ weight: 9, arbitrary: fc.constant<'' | '/api'>('') }, { weight: 1, arbitrary: fc.constant<'' | '/api'>('/api') }),
      pathIds: fc.tuple(...operation.pathParameters.map((p) => pathId(p).map((id): [string, PathId] => [p.name, id]))),
      query: mode.chain((m) => query(operation.queryParameters, { mode: m, resolve })),
      credentials,
      body: body(operation.body, resolve),
    })
    .map((parts) => printable(keepOffFixture({ operation: operation.key, template: operation.path, ...parts })));
}

/** A request for any of the operations, each equally likely. */
export function requestArbitrary(operations: Operation[], resolve: SchemaContext['resolve']): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...operations.map((operation) => requestFor(operation, resolve)));
}
