/**
 * One full garbage collection when a process that served requests has had none for a while.
 *
 * Why: under load V8 grows its old generation far past what the process keeps (a list page of
 * 50 records makes about a megabyte of garbage, much of it promoted while requests wait), and Node
 * never tells V8 it is idle, so that memory stays resident until the next load forces a collection
 * (W6 in docs/benchmark.md: 141 MB of old generation holding 46 MB after the bench's reads). A
 * collection once the requests have stopped gives the free pages back, at a cost of tens of
 * milliseconds that no request waits for.
 * @example const idle = new IdleCollection(5_000, gc); idle.answered(Date.now()); setInterval(() => idle.tick(Date.now()), 1_000)
 */
export class IdleCollection {
  private lastAnswered = 0;
  /** Whether a request was answered since the last collection. */
  private served = false;

  constructor(
    private readonly idleMs: number,
    private readonly collect: () => void,
  ) {}

  /**
   * A request was answered at `now` (epoch ms). Requests in flight are not counted: one the client
   * gave up on would hold the count up for good. A request that outlasts `idleMs` (a chat stream)
   * may see the collection, a pause of tens of milliseconds.
   */
  answered(now: number): void {
    this.lastAnswered = Math.max(this.lastAnswered, now);
    this.served = true;
  }

  /** Collects if requests were answered and none for `idleMs`; returns whether it did. */
  tick(now: number): boolean {
    if (!this.served || now - this.lastAnswered < this.idleMs) return false;
    this.served = false;
    this.collect();
    return true;
  }
}
