import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';

/** A problem at a path inside a checked value (`fields[0].fieldId`; '' for the value itself). */
export interface SchemaProblem {
  path: string;
  message: string;
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerOf(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  return check;
}

/** `/fields/0/fieldId` → `fields[0].fieldId` (JSON pointer to the dotted form messages use). */
export function dottedPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The property every object variant of a union fixes to a literal (`kind`), if there is one. */
function discriminatorOf(variants: TSchema[]): string | undefined {
  const literalKeys = (v: TSchema) => Object.entries((v.properties ?? {}) as Record<string, TSchema>).filter(([, p]) => 'const' in p).map(([k]) => k);
  const [first, ...rest] = variants.map(literalKeys);
  return first?.find((key) => rest.every((keys) => keys.includes(key)));
}

/** The values a union allows, each once (two variants may share a `kind`: a current and an earlier form). */
const listed = (values: unknown[]) => [...new Set(values.map((v) => JSON.stringify(v)))].join(', ');

/** Plain words for the usual problems; TypeBox's own message for the rest. */
const MESSAGES: Partial<Record<ValueErrorType, (schema: TSchema) => string>> = {
  [ValueErrorType.ObjectRequiredProperty]: () => 'is required',
  [ValueErrorType.Literal]: (s) => `must be ${JSON.stringify(s.const)}`,
  [ValueErrorType.String]: () => 'must be a string',
  [ValueErrorType.StringMinLength]: (s) => (s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`),
  [ValueErrorType.StringMaxLength]: (s) => `must be at most ${s.maxLength} characters`,
  [ValueErrorType.StringPattern]: (s) => `must match ${s.pattern}`,
  [ValueErrorType.Number]: () => 'must be a number',
  [ValueErrorType.Integer]: () => 'must be a whole number',
  [ValueErrorType.Boolean]: () => 'must be true or false',
  [ValueErrorType.Object]: () => 'must be an object',
  [ValueErrorType.Array]: () => 'must be a list',
  [ValueErrorType.ArrayMinItems]: (s) => `must hold at least ${s.minItems} ${s.minItems === 1 ? 'item' : 'items'}`,
  [ValueErrorType.ArrayMaxItems]: (s) => `must hold at most ${s.maxItems} items`,
};

function messageOf(error: ValueError): string {
  const plain = MESSAGES[error.type];
  if (plain) return plain(error.schema);
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}

/**
 * Explains a union's failure by the variant the value meant: the one its discriminator names
 * (`kind: "field"` → the field reference's own problems), else the one with the fewest problems,
 * rather than TypeBox's bare "Expected union value".
 */
function explainUnion(error: ValueError): SchemaProblem[] {
  const variants = (error.schema.anyOf ?? []) as TSchema[];
  if (variants.length > 0 && variants.every((v) => 'const' in v)) return [{ path: dottedPath(error.path), message: `must be one of ${listed(variants.map((v) => v.const))}` }];
  const key = discriminatorOf(variants);
  if (key && isRecord(error.value)) {
    const chosen = variants.findIndex((v) => (v.properties as Record<string, TSchema>)[key].const === (error.value as Record<string, unknown>)[key]);
    if (chosen < 0) return [{ path: dottedPath(`${error.path}/${key}`), message: `must be one of ${listed(variants.map((v) => (v.properties as Record<string, TSchema>)[key].const))}` }];
    return explainAll([...error.errors[chosen]]);
  }
  const candidates = error.errors.map((iterator) => [...iterator]).filter((errors) => errors.length > 0);
  if (candidates.length === 0) return [{ path: dottedPath(error.path), message: messageOf(error) }];
  const fewest = candidates.reduce((best, errors) => (errors.length < best.length ? errors : best));
  return explainAll(fewest);
}

/** One problem per path (TypeBox reports "required" and "expected string" for one missing key). */
function explainAll(errors: ValueError[]): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const error of errors) {
    for (const problem of error.type === ValueErrorType.Union ? explainUnion(error) : [{ path: dottedPath(error.path), message: messageOf(error) }]) {
      if (!problems.some((p) => p.path === problem.path)) problems.push(problem);
    }
  }
  return problems;
}

/**
 * Checks a value against a TypeBox schema (compiled once per schema) and names each problem by its
 * path inside the value, for messages like `nodes[approve_1].config.fields[0].fieldId: is required`.
 * @example schemaProblems(Type.Object({ a: Type.String() }), {}) // → [{ path: 'a', message: 'is required' }]
 */
export function schemaProblems(schema: TSchema, value: unknown): SchemaProblem[] {
  const check = checkerOf(schema);
  if (check.Check(value)) return [];
  return explainAll([...check.Errors(value)]);
}
