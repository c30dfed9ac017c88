// How often a live page refetches a query because changes were pushed. A busy fleet announces a
// change every 250 ms (the stream's coalescing), and refetching the overview's stats and servers on
// each one kept an open overview at ~0.3 of a core and sent its server ~5 requests a second
// (docs/dashboard.md, "Live updates"). Each query refetches at once on the first change after a quiet
// spell, then at most once per interval while changes keep coming, the last time after the last
// change: nothing pushed is left unfetched, and an isolated change shows as fast as before.

export interface PacerClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

const realClock: PacerClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class RefetchPacer<K> {
  private readonly last = new Map<string, number>();
  private readonly pending = new Map<string, unknown>();

  /** `refetch(key)` is called at most once per `intervalMs` for each hash. */
  constructor(
    private readonly intervalMs: number,
    private readonly refetch: (key: K) => void,
    private readonly clock: PacerClock = realClock,
  ) {}

  /** A pushed change affects the query `hash` (key `key`): refetch it now or once the interval is up. */
  changed(hash: string, key: K): void {
    if (this.pending.has(hash)) return; // the refetch already scheduled comes after this change
    const since = this.clock.now() - (this.last.get(hash) ?? -Infinity);
    if (since >= this.intervalMs) return this.run(hash, key);
    this.pending.set(
      hash,
      this.clock.setTimer(() => {
        this.pending.delete(hash);
        this.run(hash, key);
      }, this.intervalMs - since),
    );
  }

  /** Drops what is scheduled (the page is going away or stops being live). */
  stop(): void {
    for (const timer of this.pending.values()) this.clock.clearTimer(timer);
    this.pending.clear();
  }

  private run(hash: string, key: K): void {
    this.last.set(hash, this.clock.now());
    this.refetch(key);
  }
}
