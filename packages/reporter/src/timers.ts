// The reporter's timers keep the Node process alive only while someone awaits flush() or close():
// an idle or retrying reporter must never hold a server process open on exit.
type Timer = ReturnType<typeof setTimeout>;

export class Timers {
  private readonly live = new Set<Timer>();

  constructor(private readonly keepAlive: () => boolean) {}

  later(ms: number, fn: () => void): Timer {
    const t = setTimeout(
      () => {
        this.live.delete(t);
        fn();
      },
      Math.max(0, Math.ceil(ms)),
    );
    this.live.add(t);
    if (!this.keepAlive()) t.unref();
    return t;
  }

  cancel(t: Timer | null): void {
    if (t) {
      clearTimeout(t);
      this.live.delete(t);
    }
  }

  /** Call when keepAlive() may have changed. */
  syncRefs(): void {
    const keep = this.keepAlive();
    for (const t of this.live) {
      if (keep) t.ref();
      else t.unref();
    }
  }

  clearAll(): void {
    for (const t of this.live) clearTimeout(t);
    this.live.clear();
  }
}

export type { Timer };
