/**
 * Wrong share-link passwords, counted per link and client address: after `limit` failures within
 * `windowMs` the client waits until the oldest of them leaves the window. Kept in this process's
 * memory (each process of a cluster counts on its own), timed by the server's clock so tests can
 * fix it. A right password clears the count.
 * @example const attempts = new PasswordAttempts(5, 15 * 60_000); attempts.waitMs(key, now) // 0: may try
 */
export class PasswordAttempts {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  /** Milliseconds until the client may try again; 0 when it may try now. */
  waitMs(key: string, now: number): number {
    const times = this.recent(key, now);
    return times.length < this.limit ? 0 : times[times.length - this.limit] + this.windowMs - now;
  }

  fail(key: string, now: number): void {
    this.failures.set(key, [...this.recent(key, now), now]);
    // Keys whose failures have all left the window are dropped now and then, so memory stays bounded.
    if (this.failures.size > 10_000) for (const other of [...this.failures.keys()]) this.recent(other, now);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
