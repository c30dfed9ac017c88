// A progressive failure throttle, pure and in memory (time is passed in, so tests need no
// sleeps): each key may fail `free` times, then every further failure blocks it for a delay that
// doubles per failure up to `maxDelayMs`. Failures are forgiven at one per `decayMs`, so a key
// that keeps guessing is held to about one try per `decayMs` and nobody is locked out for good.
// Memory is bounded: past `maxKeys` the least recently failed keys are forgotten first (a quiet
// key has usually decayed to nothing anyway). The policy (which keys, when a block applies) lives
// in credential-throttle.ts.

export interface ThrottleOptions {
  /** Failures a key may make before its first delay. */
  free: number;
  /** The delay after the first failure past `free`; it doubles with each further one. */
  baseDelayMs: number;
  /** The longest delay (the bound of the progression). */
  maxDelayMs: number;
  /** Milliseconds to forgive one failure: the sustained rate a persistent guesser gets. */
  decayMs: number;
  /** Keys remembered at most (the memory bound). */
  maxKeys: number;
}

interface Entry {
  /** Failures not yet forgiven (fractional while decaying). */
  failures: number;
  /** When `failures` was last brought up to date. */
  at: number;
  /** Blocked until this instant. */
  until: number;
}

// 2^30 × any sane base is beyond every maxDelayMs; the cap only keeps Math.pow finite.
const MAX_DOUBLINGS = 30;

export class FailureThrottle {
  private readonly entries = new Map<string, Entry>();
  constructor(readonly options: ThrottleOptions) {}

  /** Milliseconds until `key` may try again; 0 when it is not blocked. */
  retryAfterMs(key: string, now: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    const wait = Math.max(0, e.until - now);
    if (wait === 0 && this.decayed(e, now) === 0) this.entries.delete(key); // fully forgiven: forget it
    return wait;
  }

  /** Counts one failure against `key`; returns the milliseconds it is now blocked for (0: still free). */
  fail(key: string, now: number): number {
    const e = this.entries.get(key) ?? { failures: 0, at: now, until: 0 };
    e.failures = this.decayed(e, now) + 1;
    e.at = now;
    const over = Math.ceil(e.failures) - this.options.free;
    if (over > 0) {
      const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.min(over - 1, MAX_DOUBLINGS));
      e.until = Math.max(e.until, now + delay);
    }
    this.entries.delete(key); // re-insert: Map order is then least recently failed first
    this.entries.set(key, e);
    while (this.entries.size > this.options.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    return Math.max(0, e.until - now);
  }

  /** Keys remembered now. */
  get size(): number {
    return this.entries.size;
  }

  private decayed(e: Entry, now: number): number {
    return Math.max(0, e.failures - Math.max(0, now - e.at) / this.options.decayMs);
  }
}
