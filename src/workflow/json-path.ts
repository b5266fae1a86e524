/**
 * A value inside a JSON document by a simple path: keys separated by dots, array items by `[n]`,
 * an optional leading `$` (`$.data.items[0].id`, `data.items[0].id`). Undefined when the path leads
 * nowhere.
 */
export const JSON_PATH_PATTERN = '^\\$?(\\.?[A-Za-z0-9_\\-]+|\\[\\d+\\])*$';

export function valueAt(document: unknown, path: string): unknown {
  const steps = [...path.replace(/^\$/, '').matchAll(/\.?([A-Za-z0-9_-]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  let current: unknown = document;
  for (const step of steps) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}
