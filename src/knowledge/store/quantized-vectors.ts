/**
 * The vectors of one knowledge base (of one size) in memory, quantized to 8 bits, for a first
 * ranking that is much cheaper than the store's exact scan; the few best are then scored exactly.
 *
 * Layout: one column per dimension (`codes[d * capacity + slot]`), each vector scaled by its own
 * largest component (`scales[slot]`). A query only walks the columns where it is not zero: the
 * built-in embedder's queries are sparse (a question of five words sets about 30 of 256
 * dimensions), so a search reads about a tenth of the codes, each column in one straight pass.
 * 100,000 vectors of 256 dimensions take 26 MB, a quarter of their float size.
 */

/** A passage's key and its approximate similarity. */
export interface ApproximateHit {
  seq: number;
  score: number;
}

const LEVELS = 127;

/**
 * A vector's codes as stored in `knowledge_passages.vector_codes`: one signed byte per dimension,
 * each component divided by the largest one's 1/127 and rounded, then that scale as a
 * little-endian 4-byte float.
 * @example const stored = encodeVector(vector); decodedDims(stored) === vector.length
 */
export function encodeVector(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length + 4);
  let largest = 0;
  for (const x of vector) largest = Math.max(largest, Math.abs(x));
  const scale = largest / LEVELS || 1;
  for (let d = 0; d < vector.length; d++) out.writeInt8(Math.round(vector[d]! / scale), d);
  out.writeFloatLE(scale, vector.length);
  return out;
}

/** The number of dimensions of stored codes. */
export function decodedDims(codes: Uint8Array): number {
  return codes.byteLength - 4;
}

export class QuantizedVectors {
  private capacity: number;
  private codes: Int8Array;
  private scales: Float32Array;
  private seqs: Float64Array;
  private alive: Uint8Array;
  private used = 0;
  private readonly slotOf = new Map<number, number>();
  /** The sums of one search, kept between searches: 400 KB per 100,000 vectors, not allocated each time. */
  private sums = new Float32Array(0);

  constructor(
    readonly dims: number,
    initialCapacity = 1024,
  ) {
    this.capacity = Math.max(16, initialCapacity);
    this.codes = new Int8Array(dims * this.capacity);
    this.scales = new Float32Array(this.capacity);
    this.seqs = new Float64Array(this.capacity);
    this.alive = new Uint8Array(this.capacity);
  }

  /** How many vectors it holds. */
  get size(): number {
    return this.slotOf.size;
  }

  /** The memory its arrays take, in bytes. */
  get bytes(): number {
    return this.capacity * (this.dims + 4 + 8 + 1) + this.sums.byteLength;
  }

  /** What `count` vectors of `dims` dimensions take at least (for the memory budget, before loading). */
  static bytesFor(dims: number, count: number): number {
    return count * (dims + 17);
  }

  has(seq: number): boolean {
    return this.slotOf.has(seq);
  }

  /** Stores the vector of `seq` from its codes (`encodeVector`), replacing the one it had. */
  setCodes(seq: number, stored: Uint8Array): void {
    if (decodedDims(stored) !== this.dims) throw new Error(`a vector of ${decodedDims(stored)} dimensions in an index of ${this.dims}`);
    this.delete(seq);
    if (this.used === this.capacity) this.reshape(this.slotOf.size * 2 > this.capacity ? this.capacity * 2 : this.capacity);
    const slot = this.used++;
    const codes = new Int8Array(stored.buffer, stored.byteOffset, this.dims);
    for (let d = 0; d < this.dims; d++) this.codes[d * this.capacity + slot] = codes[d]!;
    this.scales[slot] = new DataView(stored.buffer, stored.byteOffset + this.dims, 4).getFloat32(0, true);
    this.seqs[slot] = seq;
    this.alive[slot] = 1;
    this.slotOf.set(seq, slot);
  }

  delete(seq: number): void {
    const slot = this.slotOf.get(seq);
    if (slot === undefined) return;
    this.alive[slot] = 0;
    this.slotOf.delete(seq);
  }

  /**
   * The `n` vectors most similar to `query` by their codes, best first. The scores are within about
   * 1 % of the exact ones: the caller ranks a few more than it needs and scores those exactly.
   */
  nearest(query: Float32Array, n: number): ApproximateHit[] {
    const used = this.used;
    if (this.sums.length < used) this.sums = new Float32Array(this.capacity);
    const sums = this.sums.subarray(0, used);
    sums.fill(0);
    const { codes, capacity } = this;
    for (let d = 0; d < this.dims; d++) {
      const weight = query[d]!;
      if (weight === 0) continue;
      const start = d * capacity;
      for (let slot = 0; slot < used; slot++) sums[slot]! += weight * codes[start + slot]!;
    }
    return this.best(sums, n);
  }

  /** The `n` best live slots of `sums`, by a min-heap of `n` (a slot enters only past the heap's worst). */
  private best(sums: Float32Array, n: number): ApproximateHit[] {
    const heapScores = new Float64Array(n);
    const heapSlots = new Int32Array(n);
    let count = 0;
    for (let slot = 0; slot < sums.length; slot++) {
      if (this.alive[slot] === 0) continue;
      const score = sums[slot]! * this.scales[slot]!;
      if (count < n) {
        let i = count++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (heapScores[parent]! <= score) break;
          heapScores[i] = heapScores[parent]!;
          heapSlots[i] = heapSlots[parent]!;
          i = parent;
        }
        heapScores[i] = score;
        heapSlots[i] = slot;
      } else if (score > heapScores[0]!) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= count) break;
          const child = left + 1 < count && heapScores[left + 1]! < heapScores[left]! ? left + 1 : left;
          if (heapScores[child]! >= score) break;
          heapScores[i] = heapScores[child]!;
          heapSlots[i] = heapSlots[child]!;
          i = child;
        }
        heapScores[i] = score;
        heapSlots[i] = slot;
      }
    }
    const hits: ApproximateHit[] = [];
    for (let i = 0; i < count; i++) hits.push({ seq: this.seqs[heapSlots[i]!]!, score: heapScores[i]! });
    return hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
  }

  /** Moves the live vectors to the front of arrays of `capacity` slots (growing, or dropping removed ones). */
  private reshape(capacity: number): void {
    const codes = new Int8Array(this.dims * capacity);
    const scales = new Float32Array(capacity);
    const seqs = new Float64Array(capacity);
    const alive = new Uint8Array(capacity);
    let next = 0;
    for (let slot = 0; slot < this.used; slot++) {
      if (this.alive[slot] === 0) continue;
      for (let d = 0; d < this.dims; d++) codes[d * capacity + next] = this.codes[d * this.capacity + slot]!;
      scales[next] = this.scales[slot]!;
      seqs[next] = this.seqs[slot]!;
      alive[next] = 1;
      this.slotOf.set(this.seqs[slot]!, next);
      next++;
    }
    this.codes = codes;
    this.scales = scales;
    this.seqs = seqs;
    this.alive = alive;
    this.capacity = capacity;
    this.used = next;
  }
}
