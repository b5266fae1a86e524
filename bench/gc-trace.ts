/**
 * Reads what `node --trace-gc` printed: the heap in use after each full (mark-compact) collection,
 * which is what a process really keeps. Its resident memory between collections also holds the
 * garbage V8 has not collected yet, and V8 lets that grow while collecting costs it little (a
 * sawtooth of 100 MB or more under load), so a leak is judged on this, not on RSS.
 */
export interface FullCollection {
  /** Milliseconds since the process started, as V8 prints them. */
  atMs: number;
  /** Heap in use after the collection, MB. */
  liveMb: number;
}

const MARK_COMPACT = /^\[\d+:0x[0-9a-f]+\]\s+(\d+) ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;

/** The full collections in a `--trace-gc` log, in order; other lines are ignored. */
export function fullCollections(log: string): FullCollection[] {
  const found: FullCollection[] = [];
  for (const line of log.split('\n')) {
    const match = MARK_COMPACT.exec(line);
    if (match) found.push({ atMs: Number(match[1]), liveMb: Number(match[2]) });
  }
  return found;
}
