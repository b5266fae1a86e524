import type { FastifyInstance } from 'fastify';
import type { JsonSchema } from './schema-arbitrary.js';

/**
 * The operations of the app's own OpenAPI document: every documented route is fuzzed, and a route
 * added later is fuzzed as soon as it is documented.
 */

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `POST /v3/app/worksheets/{worksheet_id}/rows`, as the document writes it. */
  key: string;
  method: string;
  /** Path template with `{name}` placeholders. */
  path: string;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  /** The JSON request body's schema, or null when the route takes no body. */
  body: JsonSchema | null;
  /** Whether the route needs credentials (the document's default security applies unless emptied). */
  secured: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
  security?: unknown[];
}

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The operations of the document, and a resolver for its `$ref`s. */
export function operationsOf(app: FastifyInstance): { operations: Operation[]; resolve: (ref: string) => JsonSchema } {
  const document = app.swagger() as unknown as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const parameters = (operation.parameters ?? []).map(
        (p): Parameter => ({ name: p.name, in: p.in as Parameter['in'], required: p.required === true, schema: p.schema ?? {} }),
      );
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((p) => p.in === 'path'),
        queryParameters: parameters.filter((p) => p.in === 'query'),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
        secured: (operation.security ?? document.security ?? []).length > 0,
      });
    }
  }
  const resolve = (ref: string): JsonSchema => {
    const name = ref.replace(/^#\/components\/schemas\//, '');
    const found = document.components?.schemas?.[name];
    if (!found) throw new Error(`the OpenAPI document has no schema ${ref}`);
    return found;
  };
  return { operations, resolve };
}
