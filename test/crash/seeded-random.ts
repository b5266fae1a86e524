/**
 * A small seeded PRNG (mulberry32), so that a crash run's choices (batch sizes, update targets,
 * kill delays) are printed as one number and can be replayed with CRASH_SEED. The interleaving of
 * requests on the server is not replayable, and so neither is which batches are free to update.
 * @example const random = new SeededRandom(42); random.int(50, 300); // the same number every run
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** true with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/**
 * A seed of its own for one part of a run (a trial's client, the kill delays), so that the
 * choices of one part do not shift when another part, driven by timing, draws more or fewer numbers.
 * @example new SeededRandom(deriveSeed(seed, trial, client))
 */
export function deriveSeed(seed: number, ...parts: number[]): number {
  let h = seed >>> 0;
  for (const part of parts) {
    h = Math.imul(h ^ (part + 0x9e3779b9), 0x85ebca6b) >>> 0;
    h = (h ^ (h >>> 13)) >>> 0;
  }
  return h;
}

/** A fresh seed for a run that was not given one. */
export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
