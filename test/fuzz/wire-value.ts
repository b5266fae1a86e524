/**
 * The values the fuzzer puts on the wire, before they become bytes. Besides plain JSON they hold
 * a few special nodes that plain JSON values cannot express or that must not exist as JS objects:
 *
 * - `Ref`: a real id of the fixture (a record, a worksheet, a field), named symbolically so that a
 *   seed replays the same logical request although ids differ between runs;
 * - `Deep`: a value nested thousands of levels; building it as an object would make
 *   `JSON.stringify` and fast-check's printer overflow the stack, so it is written out as text;
 * - `Repeat`: an array of many copies of one element (over `maxItems`, a full batch);
 * - `RawNumber`: a number literal JSON allows but `JSON.stringify` cannot produce (`1e309`, `-0`);
 * - `Huge`: a long string, printed by its length rather than in full.
 */

/** Which pool of real ids a `Ref` draws from; see fuzz-world.ts for what each holds. */
export type PoolName =
  | 'fixtureWorksheet'
  | 'fixtureRecord'
  | 'scratchWorksheet'
  | 'scratchRecord'
  | 'foreignWorksheet'
  | 'field'
  | 'option'
  | 'section';

/** Pools whose ids must not reach a destructive request sent with the fixture app's own key. */
export const PROTECTED_POOLS: ReadonlySet<PoolName> = new Set(['fixtureWorksheet', 'fixtureRecord']);

/** Where a protected id is replaced by a look-alike that may be changed (same index, scratch pool). */
export const STAND_IN_POOL: Partial<Record<PoolName, PoolName>> = { fixtureWorksheet: 'scratchWorksheet', fixtureRecord: 'scratchRecord' };

export class Ref {
  constructor(
    readonly pool: PoolName,
    readonly index: number,
  ) {}
  toString(): string {
    return `<${this.pool}#${this.index}>`;
  }
}

export class Deep {
  constructor(
    readonly depth: number,
    readonly container: 'array' | 'object',
    readonly leaf: WireValue,
  ) {}
}

export class Repeat {
  constructor(
    readonly count: number,
    readonly element: WireValue,
  ) {}
}

export class RawNumber {
  constructor(readonly literal: string) {}
}

export class Huge {
  constructor(
    readonly length: number,
    readonly unit: string,
  ) {}
}

export type WireValue =
  | null
  | boolean
  | number
  | string
  | Ref
  | Deep
  | Repeat
  | RawNumber
  | Huge
  | WireValue[]
  | { [key: string]: WireValue };

/** Makes an object from entries; `__proto__` and `constructor` become own keys, as a JSON parser would make them. */
export function objectOf(entries: Array<[string, WireValue]>): { [key: string]: WireValue } {
  const result: { [key: string]: WireValue } = {};
  for (const [key, value] of entries) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  return result;
}

function isSpecial(value: unknown): value is Ref | Deep | Repeat | RawNumber | Huge {
  return value instanceof Ref || value instanceof Deep || value instanceof Repeat || value instanceof RawNumber || value instanceof Huge;
}

/**
 * JSON text of a wire value. Special nodes are swapped for placeholder strings, the rest goes
 * through `JSON.stringify` (the generated trees are shallow), and the placeholders are then
 * replaced by their text, which is built by repetition, never by recursion.
 */
export function toJsonText(value: WireValue, resolve: (ref: Ref) => string): string {
  const specials: string[] = [];
  const marker = (i: number) => `\u0001fuzz-node-${i}\u0001`;
  const replacer = (_key: string, v: unknown) => {
    if (!isSpecial(v)) return v;
    specials.push(specialText(v, resolve));
    return marker(specials.length - 1);
  };
  let text = JSON.stringify(value, replacer) ?? 'null';
  // A special node's text is final (a nested one was written out by its own call), so one pass suffices.
  for (let i = 0; i < specials.length; i++) text = text.split(JSON.stringify(marker(i))).join(specials[i]);
  return text;
}

function specialText(node: Ref | Deep | Repeat | RawNumber | Huge, resolve: (ref: Ref) => string): string {
  if (node instanceof Ref) return JSON.stringify(resolve(node));
  if (node instanceof RawNumber) return node.literal;
  if (node instanceof Huge) return JSON.stringify(node.unit.repeat(Math.ceil(node.length / node.unit.length)).slice(0, node.length));
  if (node instanceof Repeat) {
    // Past the body limit the count no longer matters (413), so a huge element is repeated only up to ~12 MB.
    const element = toJsonText(node.element, resolve);
    const count = Math.min(node.count, Math.max(1, Math.floor(12_000_000 / element.length)));
    return `[${Array(count).fill(element).join(',')}]`;
  }
  const leaf = toJsonText(node.leaf, resolve);
  return node.container === 'array' ? `${'['.repeat(node.depth)}${leaf}${']'.repeat(node.depth)}` : `${'{"a":'.repeat(node.depth)}${leaf}${'}'.repeat(node.depth)}`;
}

/** A short, readable rendering of a wire value for failure reports (no recursion into special nodes). */
export function describeWire(value: WireValue, limit = 400): string {
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Ref) return v.toString();
    if (v instanceof RawNumber) return `<raw ${v.literal}>`;
    if (v instanceof Huge) return `<${v.length} × ${JSON.stringify(v.unit)}>`;
    if (v instanceof Deep) return `<${v.depth} nested ${v.container}s around ${describeWire(v.leaf, 60)}>`;
    if (v instanceof Repeat) return `<${v.count} × ${describeWire(v.element, 120)}>`;
    return v;
  });
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
}
