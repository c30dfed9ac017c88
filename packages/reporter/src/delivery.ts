// The delivery loop: one batch at a time (on the wire, or sleeping before its retry), the memory
// bound, flush() and close(). Everything it decides is counted in LossAccounting, so each event
// ends up exactly once as accepted, duplicate, rejected, dropped or failed.
import { computeBackoffMs } from './backoff.js';
import type { Config } from './config.js';
import { buildBody } from './envelope.js';
import { ReporterError } from './errors.js';
import type { LossAccounting } from './loss.js';
import type { Entry, EventQueue } from './queue.js';
import { describeRetry, type Committed, type Sender } from './sender.js';
import { Timers, type Timer } from './timers.js';
import { FlushWaiters } from './waiters.js';

/** The batch currently being delivered: on the wire, or waiting to retry. */
interface Batch {
  entries: Entry[];
  /** `webhook-id`: identical on every attempt as long as `body` is unchanged. */
  messageId: string;
  /** Serialised body; rebuilt (with a fresh messageId) only if overflow removed entries from it. */
  body: string | null;
  retries: number;
  startedAt: number;
  counted: boolean;
  /** True while sleeping between attempts (its entries may then be dropped on overflow). */
  waiting: boolean;
  wake: (() => void) | null;
}

const mono = (): number => performance.now();

export interface DeliveryParts {
  queue: EventQueue;
  loss: LossAccounting;
  /** Builds the sender with the delivery's timers (they stay ref'd while someone awaits). */
  sender: (timers: Timers) => Sender;
}

export class Delivery {
  private current: Batch | null = null;
  /** Monotonic time before which no request is started (a Retry-After applies to the endpoint, not one batch). */
  private resumeAt = 0;
  private pumpTimer: Timer | null = null;
  private closingFlag = false;
  private closed = false;
  private closePromise: Promise<void> | null = null;
  private readonly waiters = new FlushWaiters();
  private readonly timers = new Timers(() => this.closingFlag || this.waiters.size > 0);
  private readonly queue: EventQueue;
  private readonly loss: LossAccounting;
  private readonly sender: Sender;

  constructor(
    private readonly cfg: Config,
    parts: DeliveryParts,
  ) {
    this.queue = parts.queue;
    this.loss = parts.loss;
    this.sender = parts.sender(this.timers);
  }

  /** close() was called: report() refuses new events. */
  get closing(): boolean {
    return this.closingFlag;
  }

  get inFlight(): boolean {
    return this.sender.busy;
  }

  /** Events buffered or in the unacknowledged batch. */
  buffered(): number {
    return this.queue.size + (this.current ? this.current.entries.length : 0);
  }

  /** Call after queue.push(): enforces the bound and sends when a batch is due. */
  queued(): void {
    this.enforceBound();
    if (!this.current && (this.pumpTimer === null || this.queue.holdsFullBatch())) this.pump();
  }

  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const target = this.queue.nextSeq;
    if (this.lowestUnsettled() >= target) return Promise.resolve();
    const done = this.waiters.add(target);
    this.timers.syncRefs();
    this.pump();
    return done;
  }

  close(): Promise<void> {
    if (this.closePromise) return this.closePromise;
    this.closingFlag = true;
    this.timers.syncRefs();
    this.closePromise = (async () => {
      const deadline = this.timers.later(this.cfg.closeTimeoutMs, () => this.giveUp());
      try {
        await this.flush();
      } finally {
        this.timers.cancel(deadline);
        this.closed = true;
        this.timers.cancel(this.pumpTimer);
        this.pumpTimer = null;
        this.timers.clearAll();
        this.loss.emitDrops();
      }
    })();
    return this.closePromise;
  }

  // ---- bookkeeping ---------------------------------------------------------------------------

  private lowestUnsettled(): number {
    const c = this.current?.entries[0];
    if (c) return c.seq;
    const p = this.queue.peek();
    if (p) return p.seq;
    return this.queue.nextSeq;
  }

  private checkWaiters(): void {
    if (this.waiters.size > 0 && this.waiters.settle(this.lowestUnsettled())) this.timers.syncRefs();
  }

  private enforceBound(): void {
    let over = this.buffered() - this.cfg.maxBufferedEvents;
    if (over <= 0) return;
    const ids: string[] = [];
    // The oldest unacknowledged events are those of a batch sleeping before its retry. A batch on the
    // wire cannot be recalled, so then the oldest droppable events are at the head of the buffer.
    const current = this.current;
    if (current && current.waiting && current.entries.length > 0) {
      const removed = current.entries.splice(0, Math.min(over, current.entries.length));
      for (const e of removed) ids.push(e.id);
      over -= removed.length;
      // Different body => different message: new webhook-id. Events that were already committed
      // under the old id come back as duplicates (the server dedupes by event id), not twice.
      current.body = null;
      current.messageId = this.cfg.idFactory();
      if (current.entries.length === 0) current.wake?.();
    }
    for (const e of this.queue.dropOldest(over)) ids.push(e.id);
    this.loss.drop('overflow', ids);
    this.checkWaiters();
  }

  // ---- sending -------------------------------------------------------------------------------

  private pump(): void {
    if (this.closed || this.current) return; // runBatch() calls pump() when the current batch settles
    this.timers.cancel(this.pumpTimer);
    this.pumpTimer = null;
    const head = this.queue.peek();
    if (!head) {
      this.checkWaiters();
      return;
    }
    const now = mono();
    if (now < this.resumeAt) {
      this.pumpTimer = this.timers.later(this.resumeAt - now, () => this.pump());
      return;
    }
    const urgent = this.closingFlag || this.waiters.wantsSeq(head.seq);
    const age = now - head.at;
    if (!urgent && !this.queue.holdsFullBatch() && age < this.cfg.flushIntervalMs) {
      this.pumpTimer = this.timers.later(this.cfg.flushIntervalMs - age, () => this.pump());
      return;
    }
    const batch: Batch = {
      entries: this.queue.takeBatch(),
      messageId: this.cfg.idFactory(),
      body: null,
      retries: 0,
      startedAt: mono(),
      counted: false,
      waiting: false,
      wake: null,
    };
    this.current = batch;
    void this.runBatch(batch);
  }

  private sleep(batch: Batch, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      batch.waiting = true;
      const done = (): void => {
        if (!batch.waiting) return;
        batch.waiting = false;
        batch.wake = null;
        this.timers.cancel(t);
        resolve();
      };
      batch.wake = done;
      const t = this.timers.later(ms, done);
    });
  }

  private async runBatch(batch: Batch): Promise<void> {
    const { cfg, loss } = this;
    const ids = (): string[] => batch.entries.map((e) => e.id);
    try {
      while (!this.closed && batch.entries.length > 0) {
        batch.body ??= buildBody(
          batch.entries.map((e) => e.json),
          loss.status(),
          cfg.version,
        );
        if (!batch.counted) {
          batch.counted = true;
          loss.counts.sent += batch.entries.length;
        }
        const outcome = await this.sender.send(batch.messageId, batch.body);
        if (this.closed) return; // close() timed out and already accounted for this batch
        if (outcome.kind === 'committed') {
          this.settleCommitted(batch, outcome);
          break;
        }
        if (outcome.kind === 'fatal') {
          loss.reject(
            batch.entries.length,
            new ReporterError('batch_rejected', `ingest refused the batch with ${outcome.status}: ${outcome.message}`, {
              status: outcome.status,
              serverCode: outcome.serverCode,
              eventIds: ids(),
            }),
          );
          batch.entries = [];
          break;
        }
        if (outcome.retryAfterMs != null) this.resumeAt = Math.max(this.resumeAt, mono() + outcome.retryAfterMs);
        const delay = computeBackoffMs(batch.retries, {
          baseBackoffMs: cfg.baseBackoffMs,
          maxBackoffMs: cfg.maxBackoffMs,
          retryAfterMs: outcome.retryAfterMs,
          random: cfg.random,
        });
        if (batch.retries >= cfg.maxRetries || mono() + delay - batch.startedAt > cfg.retryDeadlineMs) {
          loss.fail(
            ids(),
            new ReporterError('retries_exhausted', `gave up after ${batch.retries + 1} attempt(s): ${describeRetry(outcome)}`, {
              status: outcome.status,
              eventIds: ids(),
              cause: outcome.error,
            }),
          );
          batch.entries = [];
          break;
        }
        await this.sleep(batch, delay);
        if (this.closed || batch.entries.length === 0) break;
        batch.retries++;
        loss.counts.retries++;
      }
    } catch (err) {
      loss.error(new ReporterError('internal', `reporter bug: ${String(err)}`, { cause: err }));
      if (this.current === batch && !this.closed) {
        loss.fail(ids(), null);
        batch.entries = [];
      }
    } finally {
      if (this.current === batch) this.current = null;
      this.checkWaiters();
      this.pump();
    }
  }

  private settleCommitted(batch: Batch, o: Committed): void {
    const n = batch.entries.length;
    const rejected = Math.min(o.rejected.length, n);
    const duplicates = Math.min(o.duplicates, n - rejected);
    // Derive accepted so that every event lands in exactly one bucket even if the server's counts are off.
    this.loss.counts.accepted += n - rejected - duplicates;
    this.loss.counts.duplicates += duplicates;
    if (o.rejected.length > 0) {
      const list = o.rejected.map((r) => ({ ...r, id: r.id || batch.entries[r.index]?.id || '' }));
      this.loss.reject(
        rejected,
        new ReporterError('events_rejected', `ingest dead-lettered ${list.length} event(s)`, {
          eventIds: list.map((r) => r.id),
          rejected: list,
        }),
      );
    }
    batch.entries = [];
  }

  // ---- close timeout -------------------------------------------------------------------------

  private giveUp(): void {
    if (this.closed) return;
    this.closed = true;
    const left = [...(this.current ? this.current.entries : []), ...this.queue.drain()];
    if (this.current) {
      this.current.entries = [];
      this.current.wake?.();
      this.current = null;
    }
    this.sender.abort(new Error('reporter closed'));
    this.timers.cancel(this.pumpTimer);
    this.pumpTimer = null;
    const ids = left.map((e) => e.id);
    this.loss.fail(
      ids,
      left.length > 0
        ? new ReporterError('close_timeout', `close() timed out with ${left.length} event(s) unacknowledged`, { eventIds: ids })
        : null,
    );
    this.checkWaiters();
  }
}
