/**
 * A per-process cache of parsed structure (worksheet schemas), owned by one app instance.
 * Entries are dropped by the service that changes the structure, after its transaction commits.
 * Several processes on one PostgreSQL see a change made elsewhere within `ttlMs`.
 */
export class SchemaCache<T> {
  private readonly entries = new Map<string, { value: T; at: number }>();

  constructor(private readonly ttlMs = 5_000) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T): void {
    this.entries.set(key, { value, at: Date.now() });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
