// Bounded concurrency per probe target: at most `perTarget` probes run against one origin at a
// time; the others wait their turn (in order) instead of piling connections onto the server.

export class TargetLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(readonly perTarget = 1) {
    if (!(Number.isInteger(perTarget) && perTarget >= 1)) throw new RangeError('perTarget must be an integer ≥ 1');
  }

  /** Runs `work` once a slot for `key` is free, and frees it when the work settles. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(key);
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  /** Probes currently running against `key`. */
  active(key: string): number {
    return this.running.get(key) ?? 0;
  }

  private acquire(key: string): Promise<void> {
    const n = this.running.get(key) ?? 0;
    if (n < this.perTarget) {
      this.running.set(key, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(key) ?? [];
      queue.push(resolve);
      this.waiting.set(key, queue);
    });
  }

  private release(key: string): void {
    const next = this.waiting.get(key)?.shift();
    if (next) {
      // The slot passes straight to the next waiter; the running count stays.
      if (this.waiting.get(key)!.length === 0) this.waiting.delete(key);
      next();
      return;
    }
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
  }
}
