import type { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every number a route schema reads is finite and in range. ajv coerces numeric strings, and
 * "Infinity", "-Infinity" or "1e309" coerce to ±Infinity, which then passes `type: integer` and
 * skips `minimum`/`maximum` (ajv only range-checks finite numbers): such a page index reached the
 * database. So every number or integer in a request schema (body, querystring, params, headers)
 * gets the `x-finite` keyword, checked after coercion, and integers without bounds of their own
 * stay within the safe-integer range, where arithmetic on them (page offsets) is exact.
 */
const INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/** The ajv keyword behind it: a number that is not finite is refused, whatever it was coerced from. */
export function finiteNumberKeyword(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: 'x-finite',
    errors: true,
    validate: function validate(this: unknown, _schema: unknown, data: unknown): boolean {
      if (typeof data !== 'number' || Number.isFinite(data)) return true;
      (validate as unknown as { errors: unknown[] }).errors = [{ keyword: 'x-finite', message: 'must be a finite number', params: {} }];
      return false;
    },
  });
  return ajv;
}

type SchemaNode = Record<string, unknown>;

function typesOf(node: SchemaNode): string[] {
  const type = node.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

function markNumbers(node: SchemaNode, seen: Set<object>): void {
  if (seen.has(node)) return;
  seen.add(node);
  const types = typesOf(node);
  if (types.includes('number') || types.includes('integer')) {
    node['x-finite'] = true;
    if (!types.includes('number')) {
      if (node.maximum === undefined && node.exclusiveMaximum === undefined) node.maximum = INTEGER_BOUND;
      if (node.minimum === undefined && node.exclusiveMinimum === undefined) node.minimum = -INTEGER_BOUND;
    }
  }
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const item of value) if (item && typeof item === 'object') markNumbers(item as SchemaNode, seen);
    if (value && typeof value === 'object' && !Array.isArray(value)) markNumbers(value as SchemaNode, seen);
  }
}

export const finiteNumbersPlugin = fp(async (app: FastifyInstance) => {
  const seen = new Set<object>();
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (!schema) return;
    for (const part of ['body', 'querystring', 'params', 'headers']) {
      const node = schema[part];
      if (node && typeof node === 'object') markNumbers(node as SchemaNode, seen);
    }
  });
});
