import fc from 'fast-check';
import { anyValue, hostileString, hugeString, manyOf, NUMBERS_AS_STRINGS, rawNumber, SYSTEM_LOOKING_KEYS, wrongTypeFor } from './hostile-values.js';
import { hintFor } from './property-hints.js';
import { objectOf, type WireValue } from './wire-value.js';

/**
 * fast-check arbitraries derived from the JSON schemas of the OpenAPI document, so that a new
 * route or a new property is fuzzed without a change here.
 *
 * Two modes: `conforming` keeps to the schema's types and bounds (its strings and untyped values
 * may still hold NUL, lone surrogates or deep values, which the schema allows), so requests get
 * past validation into the handler; `mutated` also breaks the schema at any node: wrong types,
 * missing required properties, unknown and system-looking keys, lengths and counts past the bounds.
 */

/** The subset of (OpenAPI 3.0) JSON Schema that route schemas use. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  'x-lenient-boolean'?: boolean;
}

export type Mode = 'conforming' | 'mutated';

export interface SchemaContext {
  mode: Mode;
  /** Looks up a `$ref` of the document (`#/components/schemas/…`). */
  resolve(ref: string): JsonSchema;
}

/** Beyond this depth a schema's nested values are cut short: route schemas are shallow, recursion is not. */
const MAX_DEPTH = 6;

const LENIENT_BOOLEANS: WireValue[] = [true, false, 'true', 'True', 'false', 1, 0, '1', '0'];

/**
 * An arbitrary for values of `schema`. `property` says where the value is held, as the dotted
 * names of the properties on the way down (`rows.fields.id`; array items add nothing), for hints.
 */
export function arbitraryFor(schema: JsonSchema, ctx: SchemaContext, property = '', depth = 0): fc.Arbitrary<WireValue> {
  const conforming = conformingFor(schema, ctx, property, depth);
  if (ctx.mode === 'conforming') return conforming;
  return fc.oneof({ weight: 5, arbitrary: conforming }, { weight: 1, arbitrary: wrongTypeFor(typeOf(schema, ctx)) });
}

function typeOf(schema: JsonSchema, ctx: SchemaContext): string | undefined {
  if (schema.$ref) return typeOf(ctx.resolve(schema.$ref), ctx);
  if (schema['x-lenient-boolean']) return 'boolean';
  return schema.type;
}

function conformingFor(schema: JsonSchema, ctx: SchemaContext, property: string, depth: number): fc.Arbitrary<WireValue> {
  if (schema.$ref) return conformingFor(ctx.resolve(schema.$ref), ctx, property, depth);
  if (depth > MAX_DEPTH) return fc.constantFrom<WireValue>(null, 'x', 1);
  if (schema.const !== undefined) return fc.constant(schema.const as WireValue);
  if (schema.enum) return fc.constantFrom(...(schema.enum as WireValue[]));
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const hinted = branches.some((b) => b.type === 'string') ? hintFor(property) : undefined;
    const options = branches.map((branch) => conformingFor(branch, ctx, property, depth + 1));
    return hinted ? fc.oneof(hinted, ...options) : fc.oneof(...options);
  }
  if (schema.allOf) return conformingFor(Object.assign({}, ...schema.allOf) as JsonSchema, ctx, property, depth);
  if (schema['x-lenient-boolean']) return fc.constantFrom(...LENIENT_BOOLEANS);
  switch (schema.type) {
    case 'object':
      return objectFor(schema, ctx, property, depth);
    case 'array':
      return arrayFor(schema, ctx, property, depth);
    case 'string':
      return stringFor(schema, ctx, property);
    case 'integer':
      return integerFor(schema, ctx);
    case 'number':
      return fc.oneof(integerFor(schema, ctx), fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      // No type: the schema takes anything (a record's `value`, a `filter`).
      return hintFor(property) ?? anyValue;
  }
}

function objectFor(schema: JsonSchema, ctx: SchemaContext, property: string, depth: number): fc.Arbitrary<WireValue> {
  const required = new Set(schema.required ?? []);
  const mutated = ctx.mode === 'mutated';
  const properties = Object.entries(schema.properties ?? {}).map(([name, child]) => {
    const value = arbitraryFor(child, ctx, property ? `${property}.${name}` : name, depth + 1).map((v): [string, WireValue] => [name, v]);
    // A required property is left out only when mutating, and rarely. An optional one is present one
    // time in three: each is a chance to be refused before the handler's deeper code runs.
    const [present, absent] = required.has(name) ? (mutated ? [5, 1] : [1, 0]) : [1, 2];
    return absent === 0 ? value : fc.oneof({ weight: present, arbitrary: value }, { weight: absent, arbitrary: fc.constant(undefined) });
  });
  const open = schema.additionalProperties;
  const extraValue = typeof open === 'object' ? arbitraryFor(open, ctx, '', depth + 1) : anyValue;
  const extraKey = fc.oneof(fc.constantFrom(...SYSTEM_LOOKING_KEYS), fc.string({ maxLength: 10 }));
  // A closed object only gets unknown keys when mutating; an open one (a Record) always takes some.
  const extras =
    typeof open === 'object'
      ? fc.array(fc.tuple(fc.oneof(fc.constantFrom('precision', 'max', 'subType', 'length', 'format'), extraKey), extraValue), { maxLength: 3 })
      : mutated
        ? fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(extraKey, extraValue), { minLength: 1, maxLength: 3 }) })
        : fc.constant([]);
  return fc.tuple(fc.tuple(...properties), extras).map(([known, unknown]) =>
    objectOf([...known.filter((entry): entry is [string, WireValue] => entry !== undefined), ...(unknown as Array<[string, WireValue]>)]),
  );
}

function arrayFor(schema: JsonSchema, ctx: SchemaContext, property: string, depth: number): fc.Arbitrary<WireValue> {
  const items = schema.items ?? {};
  const element = arbitraryFor(items, ctx, property, depth + 1);
  const minLength = schema.minItems ?? 0;
  const normal = fc.array(element, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)) });
  if (ctx.mode === 'conforming') return normal;
  const beyond = schema.maxItems !== undefined ? [schema.maxItems + 1] : [];
  const counts = [...beyond, 1_000, 5_000].filter((count) => count <= 5_000);
  return fc.oneof(
    { weight: 8, arbitrary: normal },
    { weight: 1, arbitrary: fc.constant<WireValue>([]) },
    // Many copies of one small element: a full batch, or one past maxItems.
    { weight: 1, arbitrary: manyOf(arbitraryFor(items, { ...ctx, mode: 'conforming' }, property, MAX_DEPTH - 1), counts) },
  );
}

function stringFor(schema: JsonSchema, ctx: SchemaContext, property: string): fc.Arbitrary<WireValue> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 40;
  const plain = fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) });
  const options: Array<fc.WeightedArbitrary<WireValue>> = [
    { weight: 3, arbitrary: plain },
    { weight: 2, arbitrary: hostileString },
  ];
  const hint = hintFor(property);
  // A hinted string is mostly the hint: a real id or alias gets the request past the first lookup.
  if (hint) options.push({ weight: ctx.mode === 'conforming' ? 20 : 8, arbitrary: hint });
  if (ctx.mode === 'mutated') {
    options.push({ weight: 1, arbitrary: fc.constantFrom<WireValue>('', 'x'.repeat(maxLength + 1)) }, { weight: 1, arbitrary: hugeString });
  }
  return fc.oneof(...options);
}

function integerFor(schema: JsonSchema, ctx: SchemaContext): fc.Arbitrary<WireValue> {
  const min = Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 1_000_000_000, Number.MAX_SAFE_INTEGER);
  const inRange = fc.integer({ min, max });
  if (ctx.mode === 'conforming') {
    // Numbers written as strings pass validation (ajv coerces them), so "Infinity" and "1e309" belong here too.
    return fc.oneof(
      { weight: 4, arbitrary: inRange },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
      { weight: 1, arbitrary: inRange.map(String) },
      { weight: 1, arbitrary: fc.constantFrom(...NUMBERS_AS_STRINGS) },
      { weight: 1, arbitrary: rawNumber },
    );
  }
  return fc.oneof(inRange, fc.constantFrom(min - 1, max + 1, min, max, 0));
}
