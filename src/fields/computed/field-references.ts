/**
 * Field references in formula and concatenate expressions: `$fieldIdOrAlias$`, as the public
 * interface writes them. Once a field is defined its references are field ids.
 */
const REFERENCE = /\$([A-Za-z][A-Za-z0-9_]*|[0-9a-f]{24})\$/g;

/** The keys an expression names, in order of first appearance, each once. */
export function referencedKeys(expression: string): string[] {
  return [...new Set([...expression.matchAll(REFERENCE)].map((match) => match[1]))];
}

/** The expression with every reference replaced. */
export function replaceReferences(expression: string, replace: (key: string) => string): string {
  return expression.replace(REFERENCE, (_whole, key: string) => replace(key));
}
