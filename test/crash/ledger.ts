/**
 * What the clients sent and what the server acknowledged, kept across the trials of a run. A
 * write cut off by the kill is `inFlight` until the check after the restart sees whether it
 * committed; from then on its outcome is fixed, so later crashes must not change it either.
 */

/**
 * - `acknowledged`: HTTP 200 with error_code 1 came back; it must be there whole, for good.
 * - `inFlight`: sent, no answer before the kill; the next check decides.
 * - `committed` / `absent`: an in-flight write the check found whole / not at all.
 */
export type WriteState = 'acknowledged' | 'inFlight' | 'committed' | 'absent';

export interface SentUpdate {
  /** The value it sets in `marker` on every row of its batch; unique per update. */
  marker: string;
  /** `rowIds`: one value list for all rows; `rows`: per-row values (one UPDATE per row). */
  form: 'rowIds' | 'rows';
  state: WriteState;
}

export interface SentBatch {
  tag: string;
  trial: number;
  size: number;
  state: WriteState;
  /** Record ids by position `n`: from the acknowledgement, or from the check that found it committed. */
  rowIds: string[] | null;
  /** The one update ever sent to this batch's rows, if any: each batch is updated at most once, so
   * the marker its rows must hold follows from that update's state alone. */
  update: SentUpdate | null;
}

export class Ledger {
  readonly batches = new Map<string, SentBatch>();
  /** Batches with known row ids and no update yet: what an update may target. */
  private readonly updatable: SentBatch[] = [];

  recordBatchSent(tag: string, trial: number, size: number): SentBatch {
    if (this.batches.has(tag)) throw new Error(`batch tag ${tag} used twice`);
    const batch: SentBatch = { tag, trial, size, state: 'inFlight', rowIds: null, update: null };
    this.batches.set(tag, batch);
    return batch;
  }

  recordBatchAcknowledged(batch: SentBatch, rowIds: string[]): void {
    batch.state = 'acknowledged';
    batch.rowIds = rowIds;
    this.updatable.push(batch);
  }

  /** Takes the batch at `index` (scaled to the pool) out of the pool; null when the pool is empty. */
  takeUpdateTarget(pick: (poolSize: number) => number): SentBatch | null {
    if (this.updatable.length === 0) return null;
    const [batch] = this.updatable.splice(pick(this.updatable.length), 1);
    return batch;
  }

  recordUpdateSent(batch: SentBatch, marker: string, form: SentUpdate['form']): SentUpdate {
    batch.update = { marker, form, state: 'inFlight' };
    return batch.update;
  }

  /** The check found an in-flight batch whole: from now on it must stay so. */
  resolveBatch(batch: SentBatch, rowIds: string[] | null): void {
    batch.state = rowIds ? 'committed' : 'absent';
    batch.rowIds = rowIds;
    if (rowIds) this.updatable.push(batch);
  }

  count(predicate: (batch: SentBatch) => boolean): number {
    let n = 0;
    for (const batch of this.batches.values()) if (predicate(batch)) n++;
    return n;
  }
}
