// The buffer of reported events not yet in a batch: FIFO in report order, with the byte count
// the batch limits need. (The memory bound spans this buffer and the batch awaiting retry, so
// it is enforced by delivery.ts.)
import { BODY_OVERHEAD } from './envelope.js';

/** One buffered event, serialised once at report() time (so later mutation by the caller cannot leak in). */
export interface Entry {
  /** Report order; flush() waits until every seq below its target has settled. */
  seq: number;
  id: string;
  json: string;
  bytes: number;
  /** performance.now() when buffered. */
  at: number;
}

/** FIFO with O(1) shift; compacts occasionally. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get size(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  drain(): T[] {
    const out = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return out;
  }
}

export class EventQueue {
  private readonly fifo = new Fifo<Entry>();
  private bytes = 0;
  private seq = 0;

  constructor(private readonly limits: { maxBatchSize: number; maxBatchBytes: number }) {}

  get size(): number {
    return this.fifo.size;
  }

  /** The seq the next reported event gets (= how many were ever queued). */
  get nextSeq(): number {
    return this.seq;
  }

  peek(): Entry | undefined {
    return this.fifo.peek();
  }

  push(id: string, json: string, bytes: number, at: number): void {
    this.fifo.push({ seq: this.seq++, id, json, bytes, at });
    this.bytes += bytes;
  }

  /** True when the buffered events fill a whole batch (by count or bytes). */
  holdsFullBatch(): boolean {
    return this.fifo.size >= this.limits.maxBatchSize || this.bytes + this.fifo.size + BODY_OVERHEAD >= this.limits.maxBatchBytes;
  }

  /** Removes and returns up to `count` of the oldest events. */
  dropOldest(count: number): Entry[] {
    const out: Entry[] = [];
    while (out.length < count) {
      const e = this.shift();
      if (!e) break;
      out.push(e);
    }
    return out;
  }

  /** The next batch: the oldest events that fit the count and byte limits (at least one if any). */
  takeBatch(): Entry[] {
    const entries: Entry[] = [];
    let bytes = BODY_OVERHEAD;
    while (entries.length < this.limits.maxBatchSize) {
      const e = this.fifo.peek();
      if (!e) break;
      const add = e.bytes + (entries.length > 0 ? 1 : 0);
      if (entries.length > 0 && bytes + add > this.limits.maxBatchBytes) break;
      this.shift();
      entries.push(e);
      bytes += add;
    }
    return entries;
  }

  drain(): Entry[] {
    this.bytes = 0;
    return this.fifo.drain();
  }

  private shift(): Entry | undefined {
    const e = this.fifo.shift();
    if (e) this.bytes -= e.bytes;
    return e;
  }
}
