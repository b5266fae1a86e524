/**
 * The bounds every JSON value from a client is held to before any code looks at it: how deep it
 * nests, and what its strings may hold. One walk finds the first problem and names where it is,
 * so the error names the field (`rows[0].fields[1].value`) rather than failing somewhere deeper.
 */

/** Deepest nesting of objects and arrays in a request body; the body itself is level 1. */
export const MAX_JSON_DEPTH = 32;

export interface JsonProblem {
  /** Where the problem is, e.g. `rows[0].fields[1].value`; empty for the body itself. */
  path: string;
  problem: string;
}

/** A string no column should hold: NUL (PostgreSQL cannot store it) or a lone surrogate (not Unicode). */
export function badStringProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000), which is not accepted';
  if (!text.isWellFormed()) return 'contains a lone UTF-16 surrogate, which is not valid Unicode';
  return null;
}

/** `rows[0].fields` from path segments; keys that are not plain names are quoted. */
export function formatPath(segments: ReadonlyArray<string | number>): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment.length > 40 ? `${segment.slice(0, 37)}...` : segment)}]`;
  }
  return path;
}

/** Paths of over-deep values are cut after this many segments, with `…`: the start names the field. */
const PATH_SEGMENTS_SHOWN = 8;

/**
 * The first problem in a parsed JSON value, or null. Recursion stops at MAX_JSON_DEPTH, so the walk
 * itself can never overflow the stack, whatever the client sent.
 * @example inspectJson({ a: [[['x\u0000']]] }) // → { path: 'a[0][0][0]', problem: 'contains a NUL character …' }
 */
export function inspectJson(value: unknown): JsonProblem | null {
  const segments: Array<string | number> = [];
  const found = walk(value, 1, segments);
  if (!found) return null;
  const shown = segments.length > PATH_SEGMENTS_SHOWN ? `${formatPath(segments.slice(0, PATH_SEGMENTS_SHOWN))}…` : formatPath(segments);
  return { path: shown, problem: found };
}

function walk(value: unknown, depth: number, segments: Array<string | number>): string | null {
  if (typeof value === 'string') return badStringProblem(value);
  if (typeof value !== 'object' || value === null) return null;
  if (depth > MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      segments.push(i);
      const problem = walk(value[i], depth + 1, segments);
      if (problem) return problem;
      segments.pop();
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    segments.push(key);
    const problem = badStringProblem(key) ?? walk((value as Record<string, unknown>)[key], depth + 1, segments);
    if (problem) return problem;
    segments.pop();
  }
  return null;
}
