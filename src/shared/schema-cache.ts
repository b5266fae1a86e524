import { changeEpoch, noteChange } from './change-notices.js';

/**
 * A per-process cache of structure, kept 5 s by default: worksheet schemas, views and relation maps
 * (one per app instance), the workflows a worksheet triggers, whether a knowledge base indexes a
 * worksheet. Entries are dropped by the service that changes the structure, after its
 * transaction commits; dropping one is a change notice (`change-notices.ts`): the other processes of
 * the server, and every other entry here, are read again. Processes that share only a PostgreSQL
 * database see a change made elsewhere within `ttlMs`.
 */
export class SchemaCache<T> {
  private readonly entries = new Map<string, { value: T; at: number; epoch: number }>();

  constructor(private readonly ttlMs = 5_000) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.epoch !== changeEpoch() || Date.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /**
   * Keeps a value read from the database. `readSince` is `changeEpoch()` from before the read began:
   * a change noted while it was being read leaves the entry stale at once.
   */
  set(key: string, value: T, readSince = changeEpoch()): void {
    this.entries.set(key, { value, at: Date.now(), epoch: readSince });
  }

  delete(key: string): void {
    this.entries.delete(key);
    noteChange();
  }
}
