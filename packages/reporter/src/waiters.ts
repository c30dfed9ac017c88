// flush() promises: each waits until every event reported before it has settled. Events settle
// out of order in one way only (the buffer's head dropped while a batch is on the wire), so a
// waiter compares its target with the lowest unsettled seq.
export class FlushWaiters {
  private readonly list: { target: number; resolve: () => void }[] = [];

  get size(): number {
    return this.list.length;
  }

  add(target: number): Promise<void> {
    return new Promise<void>((resolve) => this.list.push({ target, resolve }));
  }

  /** Someone waits for the event with this seq. */
  wantsSeq(seq: number): boolean {
    return this.list.some((w) => w.target > seq);
  }

  /** Resolves the waiters whose events all settled; true if any did. */
  settle(lowestUnsettled: number): boolean {
    let changed = false;
    for (let i = this.list.length - 1; i >= 0; i--) {
      if (this.list[i].target <= lowestUnsettled) {
        this.list[i].resolve();
        this.list.splice(i, 1);
        changed = true;
      }
    }
    return changed;
  }
}
