import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route's validators and serializers not compiled yet; returns how many (tests). */
    compileAllSchemas(): number;
  }
}

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (payload: unknown) => string;
/** What fastify passes a compiler: the schema and where it stands (route, part or status). */
type RouteDefinition = { schema?: unknown; method: string; url: string };

/**
 * Fastify's own compilers (ajv for requests, fast-json-stringify for responses), each route's
 * function compiled on its first use instead of at start.
 *
 * Why: the routes under both prefixes have 875 validators and serializers; compiled they hold 5 MB
 * of heap, and compiling them all at start made enough garbage to grow V8's young generation to
 * 64 MB (two semi-spaces of 32) before the first request: compiling on first use alone took the idle server from 184 MB
 * resident to about 160 (docs/benchmark.md, W6). Most deployments use a few dozen of them. Only
 * the first request of a route pays its compile (a few milliseconds). `compileAll` compiles what is
 * still pending, so that a test makes every route's schemas compile (a bad schema then fails a
 * test, not a request).
 * @example const lazy = lazySchemaCompilers(); Fastify({ schemaController: { compilersFactory: lazy.compilersFactory } });
 */
export function lazySchemaCompilers(): { compilersFactory: CompilersFactory; compileAll(): number } {
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();
  const pending = new Set<() => void>();
  const lazily = <F>(compile: () => F): (() => F) => {
    let compiled: F | undefined;
    const get = (): F => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  };
  const factory = {
    buildValidator: (...args: Parameters<typeof buildValidator>) => {
      const compile = buildValidator(...args) as unknown as (route: RouteDefinition) => Validate;
      return (route: RouteDefinition) => lazyValidator(lazily(() => compile(route)));
    },
    buildSerializer: (...args: Parameters<typeof buildSerializer>) => {
      const compile = buildSerializer(...args) as (route: RouteDefinition) => Serialize;
      return (route: RouteDefinition) => lazySerializer(lazily(() => compile(route)));
    },
  };
  return {
    // The lazy functions stand where ajv's and fast-json-stringify's are; fastify calls them alike
    // (a validator's `errors` included), but their types name the compilers' own function types.
    compilersFactory: factory as unknown as CompilersFactory,
    compileAll: () => {
      const count = pending.size;
      for (const compile of [...pending]) compile();
      return count;
    },
  };
}

/** A validator whose function `compiled` gives (compiling it the first time). */
function lazyValidator(compiled: () => Validate): Validate {
  const lazy: Validate = (data) => compiled()(data);
  // Fastify reads a failed validation's errors from the function itself (set by the call just made).
  Object.defineProperty(lazy, 'errors', { get: () => compiled().errors });
  return lazy;
}

/** A serializer whose function `compiled` gives (compiling it the first time). */
function lazySerializer(compiled: () => Serialize): Serialize {
  return (payload) => compiled()(payload);
}
