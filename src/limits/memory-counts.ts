import type { Actor } from '../shared/actor.js';

/** A count that is incremented in place: one Map lookup per count, not a get and a set. */
interface Count {
  n: number;
}

/** What one credential has used: in the current window, and on the current day. */
interface CredentialCount {
  window: number;
  inWindow: number;
  day: string;
  onDay: number;
}

/**
 * The request counts of one process (no Redis): per address and per user in fixed windows of the
 * app's clock, per credential in the window and on the day. Synchronous, so that a request counted
 * here costs no promise: rate limiting on must cost the hot paths (a get by id) next to nothing.
 *
 * A window's counts are dropped when the next window begins; a credential's when neither its window
 * nor its day is the current one any more, so memory holds only the addresses, users and credentials
 * seen in the current window (and the credentials of the current day).
 * @example const counts = new MemoryCounts(); counts.address(window, '203.0.113.9') === 1
 */
export class MemoryCounts {
  private window = Number.NaN;
  private addresses = new Map<string, Count>();
  private users = new Map<string, Count>();
  /** By credential kind, then id: the ids of different kinds are different namespaces. */
  private readonly credentials = new Map<Actor['kind'], Map<string, CredentialCount>>();
  private day = '';

  /** Counts a request from `address` in `window`; returns its count there. */
  address(window: number, address: string): number {
    if (window !== this.window) this.renew(window);
    return increment(this.addresses, address);
  }

  /** Counts a request of the person `userId` in `window`; returns its count there. */
  user(window: number, userId: string): number {
    if (window !== this.window) this.renew(window);
    return increment(this.users, userId);
  }

  /**
   * The counts of `actor`'s credential, counting a request against the window when `window` is
   * given and against the day when `day` is: one lookup for both.
   */
  credential(actor: Actor, window: number | null, day: string | null): CredentialCount {
    if (window !== null && window !== this.window) this.renew(window);
    if (day !== null && day !== this.day) this.newDay(day);
    let ofKind = this.credentials.get(actor.kind);
    if (ofKind === undefined) this.credentials.set(actor.kind, (ofKind = new Map()));
    let count = ofKind.get(actor.credentialId);
    if (count === undefined) ofKind.set(actor.credentialId, (count = { window: Number.NaN, inWindow: 0, day: '', onDay: 0 }));
    if (window !== null) {
      if (count.window !== window) {
        count.window = window;
        count.inWindow = 0;
      }
      count.inWindow += 1;
    }
    if (day !== null) {
      if (count.day !== day) {
        count.day = day;
        count.onDay = 0;
      }
      count.onDay += 1;
    }
    return count;
  }

  /** How many counts are held (addresses, users, credentials): what the process keeps in memory. */
  get size(): number {
    let credentials = 0;
    for (const ofKind of this.credentials.values()) credentials += ofKind.size;
    return this.addresses.size + this.users.size + credentials;
  }

  private renew(window: number): void {
    this.window = window;
    if (this.addresses.size > 0) this.addresses = new Map();
    if (this.users.size > 0) this.users = new Map();
    this.forgetCredentials();
  }

  private newDay(day: string): void {
    this.day = day;
    this.forgetCredentials();
  }

  /** Drops the credentials that counted neither in the current window nor on the current day. */
  private forgetCredentials(): void {
    for (const ofKind of this.credentials.values()) {
      for (const [id, count] of ofKind) {
        if (count.window !== this.window && (count.day === '' || count.day !== this.day)) ofKind.delete(id);
      }
    }
  }
}

function increment(counts: Map<string, Count>, key: string): number {
  const count = counts.get(key);
  if (count === undefined) {
    counts.set(key, { n: 1 });
    return 1;
  }
  return (count.n += 1);
}
